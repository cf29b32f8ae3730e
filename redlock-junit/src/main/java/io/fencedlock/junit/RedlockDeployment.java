package io.fencedlock.junit;

import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.Persistence;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class its own Redlock deployment: {@link #nodes()} independent Redis masters on
 * {@link #backend()}, started before the class's first test and removed after its last. Test and
 * lifecycle methods (and constructors) then declare what they need as parameters:
 *
 * <ul>
 *   <li>{@link io.fencedlock.testkit.Deployment}: the nodes, their URIs and their faults (kill,
 *       pause, restart with or without data; on containers also a network partition);
 *   <li>{@link io.fencedlock.redlock.Redlock}: a client on every node with the default
 *       configuration, created for the test and closed after it;
 *   <li>{@link io.fencedlock.redlock.RedlockConfig.Builder}: a configuration with the nodes set,
 *       for a client with other settings (which the test then closes itself).
 * </ul>
 *
 * <pre>{@code
 * @RedlockDeployment(nodes = 5, backend = Backend.CONTAINER)
 * class OrderServiceTest {
 *   @Test
 *   void place_twoNodesDown_stillLocks(Deployment nodes, Redlock redlock) {
 *     nodes.node(0).kill();
 *     nodes.node(1).pause();
 *     new OrderService(redlock).place(order);   // 3 of 5 answer: a quorum
 *   }
 * }
 * }</pre>
 *
 * <p>After each test, every node fault is healed ({@link io.fencedlock.testkit.Deployment#heal()}),
 * so tests do not inherit each other's faults; keys do carry over, so tests of a class should lock
 * distinct resources. Nested classes share their enclosing class's deployment.
 *
 * <p>On {@link Backend#CONTAINER} without a Docker engine, the class is skipped with a message
 * saying why, unless the environment variable {@code CI} is {@code true}: there it fails, so that a
 * CI run cannot pass by skipping its container tests.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedlockExtension.class)
public @interface RedlockDeployment {
  /** How many Redis masters; 5 tolerates 2 failures. */
  int nodes() default 5;

  /** What runs them: local redis-server processes, or one container per node. */
  Backend backend() default Backend.PROCESS;

  /**
   * How they persist. The default is what production nodes need (see the README): a killed node
   * comes back with its data. With {@link Persistence#NONE} it comes back empty, and Redlock then
   * keeps it out of quorums for {@code maxLeaseTtl} (it lost its fence counters), also in the tests
   * after the one that killed it.
   */
  Persistence persistence() default Persistence.AOF_ALWAYS;
}

package io.fencedlock.junit;

import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.Deployment;
import io.fencedlock.testkit.DockerEngine;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extension behind {@link RedlockDeployment}: starts the deployment before the annotated
 * class's first test, hands out the deployment, Redlock clients and configurations as parameters,
 * heals node faults and closes the test's client after each test, and closes the deployment after
 * the class (also when tests failed). Use it through the annotation.
 *
 * <p>Thread-safety: stateless; its state lives in JUnit's extension stores.
 */
public final class RedlockExtension
    implements BeforeAllCallback, AfterAllCallback, AfterEachCallback, ParameterResolver {
  private static final Logger LOG = LoggerFactory.getLogger(RedlockExtension.class);
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RedlockExtension.class);
  private static final String DEPLOYMENT = "deployment";
  private static final String REDLOCK = "redlock";

  @Override
  public void beforeAll(ExtensionContext context) {
    if (deployment(context).isPresent()) {
      return; // a nested class: its enclosing class's deployment serves it
    }
    RedlockDeployment settings = settings(context);
    if (settings.nodes() < 1) {
      throw new ExtensionConfigurationException(
          "@RedlockDeployment nodes must be at least 1 but was " + settings.nodes());
    }
    if (settings.backend() == Backend.CONTAINER) {
      Optional<RuntimeException> refusal =
          DockerRequirement.check(DockerEngine.unavailableReason(), DockerRequirement.isCi());
      if (refusal.isPresent()) {
        LOG.warn("{}: {}", context.getDisplayName(), refusal.get().getMessage());
        throw refusal.get();
      }
    }
    Deployment started = settings.backend().start(settings.nodes(), settings.persistence());
    context.getStore(NAMESPACE).put(DEPLOYMENT, started);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Redlock redlock = context.getStore(NAMESPACE).remove(REDLOCK, Redlock.class);
    try {
      if (redlock != null) {
        redlock.close();
      }
    } finally {
      deployment(context).ifPresent(Deployment::heal);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    // Only the class that started the deployment closes it; nested classes only borrow it.
    Deployment owned = context.getStore(NAMESPACE).remove(DEPLOYMENT, Deployment.class);
    if (owned != null) {
      owned.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Deployment.class || type == Redlock.class || type == RedlockConfig.Builder.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    Deployment deployment =
        deployment(context)
            .orElseThrow(
                () ->
                    new ExtensionConfigurationException(
                        "no Redlock deployment: was beforeAll skipped?"));
    if (type == Deployment.class) {
      return deployment;
    }
    if (type == RedlockConfig.Builder.class) {
      return RedlockConfig.builder().nodes(deployment.uris());
    }
    if (context.getTestMethod().isEmpty()) {
      throw new ExtensionConfigurationException(
          "a Redlock parameter is handed out per test method only; in "
              + context.getDisplayName()
              + " ask for a RedlockConfig.Builder instead");
    }
    // One client per test, shared by all its parameters, closed in afterEach.
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            REDLOCK,
            key -> Redlock.create(RedlockConfig.builder().nodes(deployment.uris()).build()),
            Redlock.class);
  }

  /** The deployment of this class or of an enclosing one (stores are looked up upwards). */
  private static Optional<Deployment> deployment(ExtensionContext context) {
    return Optional.ofNullable(context.getStore(NAMESPACE).get(DEPLOYMENT, Deployment.class));
  }

  private static RedlockDeployment settings(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      Optional<RedlockDeployment> found =
          AnnotationSupport.findAnnotation(c, RedlockDeployment.class);
      if (found.isPresent()) {
        return found.get();
      }
    }
    throw new ExtensionConfigurationException(
        testClass.getName() + " uses RedlockExtension without @RedlockDeployment");
  }
}

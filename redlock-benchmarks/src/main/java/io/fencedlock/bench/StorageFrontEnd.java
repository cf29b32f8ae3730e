package io.fencedlock.bench;

import io.fencedlock.storage.service.StorageConfig;
import io.fencedlock.storage.service.StorageService;
import java.net.URI;

/**
 * One HTTP front end of the fenced store under test, on its own database. Both run in this JVM, as
 * the service does in the demo and the chaos harness. Thread-safe.
 */
interface StorageFrontEnd extends AutoCloseable {
  String JETTY = "storage-jetty";
  String JDK = "storage-jdk-httpserver";

  String name();

  URI url();

  @Override
  void close();

  /** The service as shipped: Jetty, with its default limits. */
  static StorageFrontEnd jetty(String jdbcUrl) {
    StorageService service = StorageService.start(StorageConfig.builder().jdbcUrl(jdbcUrl).build());
    return new StorageFrontEnd() {
      @Override
      public String name() {
        return JETTY;
      }

      @Override
      public URI url() {
        return service.url();
      }

      @Override
      public void close() {
        service.close();
      }
    };
  }

  /** The front end before issue 19 (see {@link JdkHttpBaseline}). */
  static StorageFrontEnd jdk(String jdbcUrl) {
    JdkHttpBaseline baseline = JdkHttpBaseline.start(jdbcUrl);
    return new StorageFrontEnd() {
      @Override
      public String name() {
        return JDK;
      }

      @Override
      public URI url() {
        return baseline.url();
      }

      @Override
      public void close() {
        baseline.close();
      }
    };
  }
}

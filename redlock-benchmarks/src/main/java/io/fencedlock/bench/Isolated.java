package io.fencedlock.bench;

import java.io.File;
import java.lang.reflect.Constructor;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link LockSystem} of this project built from another copy of redlock-core's classes, for
 * {@link Probe}: a child-first class loader holds that copy, the benchmark's own classes and every
 * library of the class path except redlock-core, and shares only the types the scenarios see with
 * the parent; resources too are looked up in the copy first. So a build from before a change and
 * one from after it run side by side in one JVM.
 */
final class Isolated {
  /** The types that cross between the loaders: loaded once, by the parent. */
  private static final List<String> SHARED =
      List.of(
          LockSystem.class.getName(),
          LockSystem.Held.class.getName(),
          NotGrantedException.class.getName());

  private Isolated() {}

  static LockSystem open(String system, String coreClasses, List<String> uris) {
    // Lettuce's JFR events of connects fail to build in a second copy of Lettuce; they are
    // recorded once per connection, never per command.
    System.setProperty("io.lettuce.core.jfr", "false");
    List<URL> urls = new ArrayList<>();
    try {
      urls.add(Path.of(coreClasses).toUri().toURL());
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        boolean core =
            entry.contains("redlock-core")
                || new File(entry, "io/fencedlock/redlock/Redlock.class").isFile();
        if (!core) {
          urls.add(Path.of(entry).toUri().toURL());
        }
      }
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(e);
    }
    ClassLoader loader = new ChildFirst(urls.toArray(URL[]::new), Isolated.class.getClassLoader());
    String name = system + "@" + Path.of(coreClasses).getFileName();
    try {
      if (system.equals(Systems.FENCED_SEPARATE)) {
        Constructor<?> c =
            loader
                .loadClass(SeparateRedlocksSystem.class.getName())
                .getDeclaredConstructor(String.class, List.class, int.class);
        c.setAccessible(true);
        return (LockSystem) c.newInstance(name, uris, HandoffScenario.CLIENTS);
      }
      Constructor<?> c =
          loader
              .loadClass(OurRedlockSystem.class.getName())
              .getDeclaredConstructor(String.class, List.class, boolean.class);
      c.setAccessible(true);
      return (LockSystem) c.newInstance(name, uris, system.equals(Systems.FENCED));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + name, e);
    }
  }

  /** Loads its own copy of every class except the JDK's and {@link #SHARED}. */
  static final class ChildFirst extends URLClassLoader {
    ChildFirst(URL[] urls, ClassLoader parent) {
      super(urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          if (SHARED.contains(name)
              || name.startsWith("java.")
              || name.startsWith("javax.")
              || name.startsWith("jdk.")
              || name.startsWith("sun.")
              || name.startsWith("com.sun.")) {
            return super.loadClass(name, resolve);
          }
          try {
            c = findClass(name);
          } catch (ClassNotFoundException e) {
            return super.loadClass(name, resolve);
          }
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }

    /**
     * Child-first too, so the copy reads its own resources (redlock-core's Lua scripts) and not the
     * parent's: URLClassLoader asks the parent first, which pairs a changed script's Java side with
     * the class path's script.
     */
    @Override
    public URL getResource(String name) {
      URL own = findResource(name);
      return own != null ? own : super.getResource(name);
    }
  }
}

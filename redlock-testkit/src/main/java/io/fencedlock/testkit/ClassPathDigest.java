package io.fencedlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What a {@link JavaImage} tag is made of: a SHA-256 over the base image, the arguments and the
 * class path's contents. A jar counts by its entries' names and bytes in name order, a directory by
 * its files' relative paths and bytes, so that rebuilding a jar (new timestamps) keeps the tag and
 * changing a class changes it. Stateless; thread-safe.
 */
final class ClassPathDigest {
  static final int HEX_DIGITS = 12;

  private ClassPathDigest() {}

  static String of(String base, List<String> javaArgs, List<Path> entries) {
    MessageDigest digest = sha256();
    field(digest, base);
    field(digest, String.join("\0", javaArgs));
    for (Path entry : entries) {
      field(digest, Files.isDirectory(entry) ? "dir" : "jar");
      if (Files.isDirectory(entry)) {
        directory(digest, entry);
      } else {
        jar(digest, entry);
      }
    }
    return HexFormat.of().formatHex(digest.digest(), 0, HEX_DIGITS / 2);
  }

  private static void jar(MessageDigest digest, Path jar) {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      List<ZipEntry> entries = new ArrayList<>(Collections.list(zip.entries()));
      entries.sort((a, b) -> a.getName().compareTo(b.getName()));
      for (ZipEntry entry : entries) {
        if (entry.isDirectory()) {
          continue;
        }
        field(digest, entry.getName());
        try (InputStream in = zip.getInputStream(entry)) {
          field(digest, in.readAllBytes());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + jar, e);
    }
  }

  private static void directory(MessageDigest digest, Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
      for (Path file : files) {
        field(digest, root.relativize(file).toString().replace('\\', '/'));
        field(digest, Files.readAllBytes(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + root, e);
    }
  }

  private static void field(MessageDigest digest, String text) {
    field(digest, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Length-prefixed, so that two fields can never run into each other. */
  private static void field(MessageDigest digest, byte[] bytes) {
    digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    digest.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK must provide SHA-256", e);
    }
  }
}

package io.fencedlock.cli.demo;

/** Escapes text for HTML and SVG content and attribute values. Stateless and thread-safe. */
final class Xml {
  private Xml() {}

  /** Replaces the five XML special characters with entities. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}

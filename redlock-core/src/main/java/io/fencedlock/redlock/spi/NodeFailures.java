package io.fencedlock.redlock.spi;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How node failures are unwrapped and described, the same on both sides of the seam. */
public final class NodeFailures {

  private NodeFailures() {}

  /** Strips the CompletionException and ExecutionException wrappers. */
  public static Throwable unwrap(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** The message of a failure and of its causes, so "unable to connect" says why. */
  public static String describe(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null && text.length() < 500; t = t.getCause()) {
      String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (text.indexOf(message) < 0) {
        text.append(text.length() == 0 ? "" : ": ").append(message);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return text.toString();
  }
}

package io.canopy.metadata.ignite;

import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.apache.ignite.lang.LoggerFactory;

/**
 * The thin client's loggers, passing on warnings and errors only: at INFO it reports every partition assignment
 * change, which in a command-line tool or a namenode's log is noise.
 */
final class QuietClientLogging implements LoggerFactory {
  @Override
  public System.Logger forName(String name) {
    return new Quiet(System.getLogger(name));
  }

  private record Quiet(System.Logger delegate) implements System.Logger {
    private static boolean passes(Level level) {
      return level.getSeverity() >= Level.WARNING.getSeverity();
    }

    @Override
    public String getName() {
      return delegate.getName();
    }

    @Override
    public boolean isLoggable(Level level) {
      return passes(level) && delegate.isLoggable(level);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
      if (passes(level)) {
        delegate.log(level, bundle, message, thrown);
      }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      if (passes(level)) {
        delegate.log(level, bundle, format, params);
      }
    }

    @Override
    public void log(Level level, Supplier<String> messageSupplier) {
      if (passes(level)) {
        delegate.log(level, messageSupplier);
      }
    }
  }
}

package io.canopy.namenode.http;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.apache.hadoop.hdfs.web.resources.Param;

/**
 * How one of Hadoop's WebHDFS parameter classes is read from a query: its {@code NAME}, its {@code DEFAULT} (the
 * value HDFS's resources use when the query has none) and its constructor from text, looked up once per class.
 */
record ParamType<P extends Param<?, ?>>(String name, String defaultValue, Constructor<P> constructor) {
  private static final ClassValue<ParamType<?>> TYPES = new ClassValue<>() {
    @Override
    protected ParamType<?> computeValue(Class<?> type) {
      return describe(type.asSubclass(Param.class));
    }
  };

  @SuppressWarnings("unchecked")
  static <P extends Param<?, ?>> ParamType<P> of(Class<P> type) {
    return (ParamType<P>) TYPES.get(type);
  }

  private static <P extends Param<?, ?>> ParamType<P> describe(Class<P> type) {
    try {
      String name = (String) type.getField("NAME").get(null);
      String defaultValue = (String) type.getField("DEFAULT").get(null);
      return new ParamType<>(name, defaultValue, type.getConstructor(String.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type.getName() + " is not a WebHDFS parameter with NAME, DEFAULT and a text "
          + "constructor", e);
    }
  }

  /** The parameter parsed from {@code value}; the class's refusal of a bad value as an IllegalArgumentException. */
  P create(String value) {
    try {
      return constructor.newInstance(value);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException refused) {
        throw refused instanceof IllegalArgumentException ? refused : new IllegalArgumentException(
            refused.getMessage(), refused);
      }
      throw new IllegalStateException("cannot read parameter " + name + ": " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read parameter " + name + ": " + e, e);
    }
  }
}

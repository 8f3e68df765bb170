package dev.baton.core;

import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;

/**
 * Makes {@link Json}'s mapper call a record's (or any class's) property-based constructor through a
 * method handle built once per type. Jackson 3.3 calls it with {@code
 * MethodHandle.invokeWithArguments}, which adapts the handle to an argument array again on every
 * object it reads: the largest single cost of turning a tool's JSON input into its record in a
 * young process, and an allocation per object in a warm one. What the constructor is given, and how
 * its failures are reported, stay Jackson's.
 *
 * <p>On the module path, applications open their packages to Jackson, not to Baton: there a
 * constructor cannot be opened here, and Jackson calls it its own way, as without this module.
 * Serializable because Jackson's mappers are, with their modules; it holds no state, and the
 * handles live in the deserializers, which a deserialized mapper builds again.
 */
final class SpreadCreators extends JacksonModule implements Serializable {
  private static final long serialVersionUID = 1L;

  @Override
  public String getModuleName() {
    return "baton-spread-creators";
  }

  @Override
  public Version version() {
    return Version.unknownVersion();
  }

  @Override
  public void setupModule(SetupContext context) {
    context.addValueInstantiators(
        new ValueInstantiators.Base() {
          @Override
          public ValueInstantiator modifyValueInstantiator(
              DeserializationConfig config,
              BeanDescription.Supplier description,
              ValueInstantiator instantiator) {
            return withSpreadCreator(config, instantiator);
          }
        });
  }

  /**
   * Jackson's own instantiator with its property-based constructor spread once; any other
   * instantiator, or a constructor Baton may not open, as it was.
   */
  private static ValueInstantiator withSpreadCreator(
      DeserializationConfig config, ValueInstantiator instantiator) {
    if (instantiator.getClass() != StdValueInstantiator.class
        || !(((StdValueInstantiator) instantiator).getWithArgsCreator()
            instanceof AnnotatedConstructor creator)) {
      return instantiator;
    }
    Constructor<?> constructor = creator.getAnnotated();
    MethodHandle spread;
    try {
      // Opened only where Jackson would open it itself: a mapper rebuilt without that keeps so.
      if (config.canOverrideAccessModifiers()) {
        constructor.setAccessible(true);
      }
      // The public lookup: with the access check on, Baton opens no more than Jackson could.
      spread =
          MethodHandles.publicLookup()
              .unreflectConstructor(constructor)
              .asFixedArity()
              .asSpreader(Object[].class, constructor.getParameterCount())
              .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Not opened to Baton (a module's class, say): Jackson calls it its own way.
      return instantiator;
    }
    return new Spread((StdValueInstantiator) instantiator, creator, spread);
  }

  /** Jackson's instantiator, calling the property-based constructor through {@code creator}. */
  private static final class Spread extends StdValueInstantiator {
    private final AnnotatedConstructor spreadFrom;
    private final MethodHandle creator;

    Spread(StdValueInstantiator base, AnnotatedConstructor spreadFrom, MethodHandle creator) {
      super(base);
      this.spreadFrom = spreadFrom;
      this.creator = creator;
    }

    @Override
    @SuppressWarnings("ReferenceEquality") // the constructor this instantiator was made for
    public Object createFromObjectWith(DeserializationContext context, Object[] arguments) {
      if (_withArgsCreator != spreadFrom) {
        // A later modifier configured another constructor: that one is Jackson's to call.
        return super.createFromObjectWith(context, arguments);
      }
      try {
        return (Object) creator.invokeExact(arguments);
      } catch (Error e) {
        throw e;
      } catch (Throwable e) {
        // As Jackson reports a constructor's failure.
        return context.handleInstantiationProblem(
            _valueClass, arguments, rewrapCtorProblem(context, e));
      }
    }
  }
}

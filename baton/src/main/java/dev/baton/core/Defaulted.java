package dev.baton.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record component that JSON may leave out because the record fills in a default, so its
 * inferred schema does not list it as required. Collections, maps, {@code Optional} and
 * {@code @Nullable} components are optional without it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Defaulted {}

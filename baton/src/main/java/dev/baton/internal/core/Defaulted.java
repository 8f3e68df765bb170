package dev.baton.internal.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record component of Baton's that JSON may leave out because the record fills in a
 * default, so its inferred schema does not list it as required while the component stays non-null
 * for NullAway. Collections, maps, {@code Optional} and {@code @Nullable} components are optional
 * without it, which is how an application's own records say the same.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Defaulted {}

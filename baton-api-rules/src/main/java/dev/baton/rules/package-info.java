/**
 * The rules every library module of Baton holds its public API to, in its own tests: {@link
 * dev.baton.rules.ApiRules} for wide values, {@link dev.baton.rules.JsonCopyContract} for JSON
 * trees in values, and {@link dev.baton.rules.ModuleTypes} to find what a module lets its users
 * name. Build-only: no Baton user depends on this package.
 */
@NullMarked
package dev.baton.rules;

import org.jspecify.annotations.NullMarked;

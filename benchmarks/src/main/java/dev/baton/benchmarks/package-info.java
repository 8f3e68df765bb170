/**
 * JMH benchmarks of Baton's hot paths and scenarios in fresh processes; benchmarks/README.md says
 * how to run each.
 */
@NullMarked
package dev.baton.benchmarks;

import org.jspecify.annotations.NullMarked;

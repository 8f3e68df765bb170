/**
 * The Spring Boot sample: basic-agents' coordinator and incident commander as beans of a Spring
 * Boot application, served in Genkit's wire format on the application's own server.
 */
@NullMarked
package dev.baton.samples.springboot;

import org.jspecify.annotations.NullMarked;

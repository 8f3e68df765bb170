/**
 * The servlet binding of the wire protocol: a servlet that serves it on any Servlet 6 container
 * (Tomcat, Jetty's ee10 or ee11), for applications that run their own. Not part of the API.
 */
@NullMarked
package dev.baton.server.internal.servlet;

import org.jspecify.annotations.NullMarked;

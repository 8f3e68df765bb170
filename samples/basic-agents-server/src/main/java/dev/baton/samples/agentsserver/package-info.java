/**
 * The basic-agents-server sample: {@code chat} (server-managed, sessions in files), {@code
 * statelessChat} (client-managed) and {@code researcher} (server-managed, for the
 * basic-agents-remote sample), served on {@code 127.0.0.1:8080}.
 */
@NullMarked
package dev.baton.samples.agentsserver;

import org.jspecify.annotations.NullMarked;

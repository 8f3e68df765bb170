/**
 * The basic-agents-server sample: {@code chat} (server-managed, sessions in files), {@code
 * statelessChat} (client-managed), {@code researcher} (server-managed, for the basic-agents-remote
 * sample) and {@code coordinator} (server-managed, delegating to the researcher in the background),
 * served on {@code 127.0.0.1:8080} with the task console at {@code /console/}.
 */
@NullMarked
package dev.baton.samples.agentsserver;

import org.jspecify.annotations.NullMarked;

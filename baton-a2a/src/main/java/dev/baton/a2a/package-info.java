/**
 * The Agent2Agent protocol for Baton: Baton agents served as A2A agents, and A2A agents as Baton
 * sub-agents.
 *
 * <h2>Version</h2>
 *
 * <p>The module speaks A2A 0.3 ({@code protocolVersion} {@code 0.3.0}) over JSON-RPC 2.0 and HTTP,
 * the version the A2A SDKs this build tests against declare: the Java SDK ({@code io.github.a2asdk}
 * 0.3.2.Final) and the JavaScript SDK ({@code @a2a-js/sdk} 1.3.0). The Java SDK's spec types are
 * Jackson 2 classes, so Baton keeps its own wire records on its Jackson 3 mapper; the interop tests
 * prove them against both SDKs' clients.
 */
@NullMarked
package dev.baton.a2a;

import org.jspecify.annotations.NullMarked;

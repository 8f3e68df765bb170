package dev.baton.server.internal.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Once the container ended a request on an error of its own, the response may be recycled (Tomcat's
 * facade throws on any call): what the exchange still does to it must neither throw nor reach it.
 */
@Timeout(10)
class ServletTransportTest {
  @Test
  void aResponseTheContainerEndedIsNeverTouchedAgain() {
    AtomicBoolean recycled = new AtomicBoolean();
    HttpServletResponse response =
        proxy(
            HttpServletResponse.class,
            (proxy, method, args) -> {
              if (recycled.get()) {
                throw new IllegalStateException("the response has been recycled");
              }
              return method.getReturnType() == boolean.class ? false : null;
            });
    AsyncContext async = proxy(AsyncContext.class, (proxy, method, args) -> null);
    HttpServletRequest request = proxy(HttpServletRequest.class, (proxy, method, args) -> null);
    ServletTransport transport = new ServletTransport(request, response, async);

    transport.onError(new AsyncEvent(async, new IOException("reset by peer")));
    recycled.set(true);

    assertThat(transport.isCommitted()).isTrue();
    assertThatCode(
            () -> {
              transport.setStatus(500);
              transport.setHeader("Content-Type", "application/json");
              transport.finish(new byte[] {'{', '}'});
            })
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> transport.write(new byte[] {1}, true)).isInstanceOf(IOException.class);
  }

  private static <T> T proxy(Class<T> type, java.lang.reflect.InvocationHandler handler) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}

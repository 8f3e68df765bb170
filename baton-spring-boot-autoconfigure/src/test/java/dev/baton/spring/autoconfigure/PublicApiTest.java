package dev.baton.spring.autoconfigure;

import dev.baton.rules.ApiSignatures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What users of this module can name is a reviewed list (see {@link ApiSignatures}). */
class PublicApiTest {
  @Test
  void thePublicSurfaceIsTheReviewedList() throws IOException {
    ApiSignatures.assertListed(
        BatonAutoConfiguration.class,
        Path.of("src/test/resources/dev/baton/spring/autoconfigure/public-api.txt"),
        List.of(
            "The public API of the baton-spring-boot-autoconfigure jar: each public type (a line",
            "without '#'), then each of its public and protected members. A change here is a",
            "change to the product."));
  }
}

package dev.baton.a2a;

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
        A2aHandler.class,
        Path.of("src/test/resources/dev/baton/a2a/public-api.txt"),
        List.of(
            "The public API of the baton-a2a jar: each public type (a line without '#'), then each of",
            "its public and protected members. A change here is a change to the product."));
  }
}

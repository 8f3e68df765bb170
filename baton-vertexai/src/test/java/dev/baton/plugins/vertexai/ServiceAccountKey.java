package dev.baton.plugins.vertexai;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.core.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A service account made for one test: an RSA key pair, the key file Google issues for it (its
 * {@code token_uri} pointing at a fake token endpoint), and the checks that endpoint makes of the
 * signed JWT a token request carries.
 */
final class ServiceAccountKey {
  static final String EMAIL = "baton-test@my-project.iam.gserviceaccount.com";
  static final String KEY_ID = "0123456789abcdef";

  /**
   * The audience Google's token endpoint requires of the JWT, whichever address the request is
   * posted to.
   */
  static final String GOOGLE_TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token";

  private final KeyPair keys;
  private final URI tokenUri;

  ServiceAccountKey(URI tokenUri) throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    this.keys = generator.generateKeyPair();
    this.tokenUri = tokenUri;
  }

  /** The private key as a key file holds it: PKCS #8 in PEM. */
  String privateKeyPem() {
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(keys.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  /** The key file's JSON, as the Cloud console downloads it. */
  String json(String projectId) {
    return Json.write(
        Json.nodes()
            .objectNode()
            .put("type", "service_account")
            .put("project_id", projectId)
            .put("private_key_id", KEY_ID)
            .put("private_key", privateKeyPem())
            .put("client_email", EMAIL)
            .put("client_id", "112233445566778899")
            .put("auth_uri", "https://accounts.google.com/o/oauth2/auth")
            .put("token_uri", tokenUri.toString()));
  }

  /** The credentials the key file loads as, as {@code GOOGLE_APPLICATION_CREDENTIALS} would. */
  GoogleCredentials credentials(String projectId) throws IOException {
    return GoogleCredentials.fromStream(
        new ByteArrayInputStream(json(projectId).getBytes(StandardCharsets.UTF_8)));
  }

  /** A token endpoint's answer. */
  static String tokenResponse(String accessToken, int expiresInSeconds) {
    return """
        {"access_token": "%s", "expires_in": %d, "token_type": "Bearer"}"""
        .formatted(accessToken, expiresInSeconds);
  }

  /**
   * Checks a token request as Google's token endpoint does: a JWT-bearer grant whose assertion is
   * signed with this account's key, issued by the account, for Google's token endpoint, asking for
   * the cloud-platform scope, and not expired.
   */
  void assertValidTokenRequest(String formBody) throws GeneralSecurityException {
    Map<String, String> form = new HashMap<>();
    for (String pair : formBody.split("&")) {
      String[] kv = pair.split("=", 2);
      form.put(
          URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
          URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
    }
    assertThat(form).containsEntry("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");
    String[] jwt = form.get("assertion").split("\\.");
    assertThat(jwt).hasSize(3);

    Signature rsa = Signature.getInstance("SHA256withRSA");
    rsa.initVerify(keys.getPublic());
    rsa.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
    assertThat(rsa.verify(Base64.getUrlDecoder().decode(jwt[2])))
        .as("the JWT is signed with the account's key")
        .isTrue();

    JsonNode header = decode(jwt[0]);
    assertThat(header.path("alg").asString()).isEqualTo("RS256");
    assertThat(header.path("kid").asString()).isEqualTo(KEY_ID);
    JsonNode claims = decode(jwt[1]);
    assertThat(claims.path("iss").asString()).isEqualTo(EMAIL);
    assertThat(claims.path("aud").asString()).isEqualTo(GOOGLE_TOKEN_AUDIENCE);
    assertThat(claims.path("scope").asString()).isEqualTo(GoogleAuth.CLOUD_PLATFORM);
    assertThat(claims.path("exp").asLong()).isGreaterThan(Instant.now().getEpochSecond());
  }

  private static JsonNode decode(String part) {
    return Json.parse(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
  }
}

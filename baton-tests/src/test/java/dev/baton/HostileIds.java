package dev.baton;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.ContextKey;
import dev.baton.core.Status;
import dev.baton.testing.SnapshotFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * IDs from a hostile alphabet (lone surrogates, NUL and other control characters, path separators,
 * {@code ..}, a leading dot, names a file system reserves, very long values, non-ASCII text, names
 * shaped like the file store's hashed names) and the store calls that take them, as snapshot IDs,
 * session IDs and tenant prefixes.
 *
 * <p>{@link #main} runs such cases against a file store in a folder of its own, for {@link
 * HostileInputFuzzTest} to run it in a JVM whose file names are ASCII.
 */
final class HostileIds {
  /** The tenant prefix of a store call, for a file store whose prefix comes from the context. */
  static final ContextKey<String> PREFIX = ContextKey.of("fuzz.prefix", String.class);

  private static final String[] PIECES = {
    "a",
    "Z",
    "7",
    "-",
    "_",
    " ",
    "~",
    ".",
    "..",
    "/",
    "\\",
    "\u0000",
    "\u001f",
    "\t",
    "\n",
    "\u007f",
    "\ud800",
    "\udfff",
    "\ud83d\ude00",
    "ü",
    "ß",
    "日本",
    "\u202e",
    "\ufeff",
    "\u00a0",
    "e\u0301",
    "%2e%2e",
    "CON",
    "nul",
    ":",
    "*",
    "?",
    "\"",
    "<",
    ">",
    "|",
    "global",
    ".pointers",
    "x.json",
    ".lock",
    "$"
  };

  private static final Instant FUTURE = Instant.parse("2100-01-01T00:00:00Z");

  private final Random random;

  HostileIds(Random random) {
    this.random = random;
  }

  /** One hostile ID. */
  String next() {
    return switch (random.nextInt(12)) {
      case 0 -> long1();
      case 1 -> "~" + HexFormat.of().formatHex(bytes(32));
      case 2 -> random.nextBoolean() ? "../" + piece() : piece() + "/../" + piece();
      case 3 -> "";
      default -> {
        StringBuilder id = new StringBuilder();
        for (int i = 1 + random.nextInt(5); i > 0; i--) {
          id.append(piece());
        }
        yield id.toString();
      }
    };
  }

  /** A value of 230 to 2,000 characters, around the limits of a file name in bytes. */
  private String long1() {
    String unit = random.nextBoolean() ? "x" : PIECES[random.nextInt(PIECES.length)];
    int length = 230 + random.nextInt(1770);
    StringBuilder id = new StringBuilder();
    while (id.length() < length) {
      id.append(unit);
    }
    return id.toString();
  }

  private String piece() {
    return PIECES[random.nextInt(PIECES.length)];
  }

  private byte[] bytes(int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  /**
   * One store call with hostile IDs: a save, a read by ID, a read of a session's latest row, or a
   * subscription. A save the store accepts must be found again, by its ID and as its session's
   * latest row.
   *
   * @param store a store that refuses the IDs it cannot hold with {@code INVALID_ARGUMENT}
   * @param at the created time of a saved row, from {@link #at}
   */
  <S extends SessionStore & SnapshotSubscriber> void storeCase(
      String kind, S store, ActionContext context, FuzzTally tally, Instant at) {
    Set<Status> allowed = Set.of(Status.OK, Status.INVALID_ARGUMENT);
    String id = next();
    String sessionId = random.nextBoolean() ? next() : "fz-session-" + random.nextInt(20);
    Map<String, String> what = new LinkedHashMap<>();
    what.put("id", id);
    context.get(PREFIX).ifPresent(prefix -> what.put("prefix", prefix));
    switch (random.nextInt(5)) {
      case 0, 1 -> {
        what.put("save with session", sessionId);
        boolean[] created = new boolean[1];
        SessionSnapshot saved =
            tally.run(
                kind,
                allowed,
                what,
                () ->
                    store.saveSnapshot(
                        context,
                        id,
                        existing -> {
                          created[0] = existing == null;
                          return SnapshotFixtures.row(id, sessionId, at);
                        }));
        if (saved != null) {
          // An empty ID has the store mint one.
          String savedId = saved.snapshotId();
          SessionSnapshot byId =
              tally.run(kind, allowed, what, () -> store.getSnapshot(context, savedId));
          if (byId == null || !byId.snapshotId().equals(savedId)) {
            tally.problem(kind, what, "a saved row is not found by its ID");
          }
          SessionSnapshot latest =
              tally.run(
                  kind, allowed, what, () -> store.getLatestSnapshot(context, saved.sessionId()));
          // A rewrite keeps the row's session and its created time, so only a new row is sure to
          // be its session's latest.
          if (created[0] && (latest == null || !latest.snapshotId().equals(savedId))) {
            tally.problem(kind, what, "a saved row is not its session's latest");
          }
        }
      }
      case 2 -> tally.run(kind, allowed, what, () -> store.getSnapshot(context, id));
      case 3 -> tally.run(kind, allowed, what, () -> store.getLatestSnapshot(context, id));
      default ->
          tally.run(
              kind,
              allowed,
              what,
              () -> {
                try (StatusSubscription subscription = store.onSnapshotStatusChange(context, id)) {
                  return subscription.getClass().getSimpleName();
                }
              });
    }
  }

  /**
   * The created time of the row a store case saves at step {@code index}: later than any row an
   * agent writes by the clock, since agents also resume these rows, and later at each step.
   */
  static Instant at(int index) {
    return FUTURE.plusSeconds(index);
  }

  /**
   * A file store whose tenant prefix is the context's {@link #PREFIX}, without polling, and without
   * syncing folders, which only power cuts need and which makes each write far slower.
   */
  static FileSessionStore fileStore(Path dir) {
    return FileSessionStore.builder(dir)
        .syncDirectories(false)
        .snapshotPathPrefix(context -> context.get(PREFIX).orElse(FileSessionStore.DEFAULT_PREFIX))
        .pollInterval(Duration.ZERO)
        .build();
  }

  /**
   * Runs store cases against a file store in {@code args[0]}, from seed {@code args[1]}, {@code
   * args[2]} of them, and prints the tally: a line {@code cases <n>}, a line {@code statuses
   * <STATUS>=<n> ...}, and a line {@code problem <text>} for each broken rule. Exits with {@link
   * AsciiNamesJvm#NOT_ASCII} when this JVM does not name files in ASCII.
   */
  public static void main(String[] args) {
    if (!AsciiNamesJvm.namesFilesInAscii()) {
      System.out.println("file names are " + System.getProperty("sun.jnu.encoding"));
      System.exit(AsciiNamesJvm.NOT_ASCII);
    }
    Path dir = Path.of(args[0]);
    Random random = new Random(Long.parseLong(args[1]));
    int cases = Integer.parseInt(args[2]);
    FuzzTally tally = new FuzzTally(List.of(dir.toAbsolutePath().toString()));
    HostileIds ids = new HostileIds(random);
    FileSessionStore store = fileStore(dir);
    ActionContext root = Baton.builder().build().context();
    for (int i = 0; tally.cases() < cases; i++) {
      ActionContext context = random.nextInt(4) == 0 ? root.with(PREFIX, ids.next()) : root;
      ids.storeCase("store IDs", store, context, tally, at(i));
    }
    // Printed in ASCII, as this JVM's standard output is: escaped past the printable range.
    System.out.println("cases " + tally.cases());
    System.out.println(
        "statuses "
            + tally.statuses().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" ")));
    tally.problems().forEach(p -> System.out.println("problem " + ascii(p)));
  }

  /** Reads what {@link #main} printed into {@code tally}. */
  static void readInto(String output, FuzzTally tally) {
    int cases = 0;
    Map<String, Long> statuses = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("cases ")) {
        cases = Integer.parseInt(line.substring(6).trim());
      } else if (line.startsWith("statuses ")) {
        for (String entry : line.substring(9).trim().split(" ")) {
          String[] pair = entry.split("=");
          statuses.put(pair[0], Long.parseLong(pair[1]));
        }
      } else if (line.startsWith("problem ")) {
        problems.add(line.substring(8));
      }
    }
    if (cases == 0) {
      problems.add("the ASCII JVM ran no cases: " + output);
    }
    tally.add("store IDs (ASCII file names)", cases, statuses, problems);
  }

  private static String ascii(String text) {
    StringBuilder out = new StringBuilder();
    text.chars()
        .forEach(
            c -> {
              if (c >= 0x20 && c < 0x7f) {
                out.append((char) c);
              } else {
                out.append(String.format("\\u%04x", c));
              }
            });
    return out.toString();
  }
}

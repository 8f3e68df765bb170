package dev.baton.agent.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the stretch of time during which whatever this process writes to a file, without forcing it
 * to the device, stays visible to every reader on the machine: until the machine next crashes or
 * loses power, which is when the page cache, and any unforced write in it, is lost.
 *
 * <p>On Linux that stretch is the boot, named by {@code /proc/sys/kernel/random/boot_id}, which the
 * kernel draws at random on every boot and which containers share with their host. Elsewhere, or
 * where {@code /proc} is not mounted, it is the life of this JVM, named by a random ID: a process
 * cannot outlive a crash of its machine, so that is safe, only shorter.
 *
 * <p>A page cache belongs to one kernel, so a boot ID speaks for the processes of one kernel only:
 * see {@link FileSessionStore} on folders shared between machines.
 */
final class BootId {
  private static final Logger log = LoggerFactory.getLogger(BootId.class);
  private static final Path LINUX_BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

  /** The fallback: this JVM's life, which no crash of the machine spans. */
  private static final String THIS_JVM = "jvm-" + UUID.randomUUID();

  private BootId() {}

  /**
   * The ID of the current boot, or of this JVM where the boot has none. Read afresh on each call,
   * once per store (see {@link FileSessionStore.Builder}), never held for the JVM's life.
   */
  static String read() {
    try {
      String id = Files.readString(LINUX_BOOT_ID, StandardCharsets.US_ASCII).strip();
      if (!id.isEmpty()) {
        return "boot-" + id;
      }
    } catch (IOException | UnsupportedOperationException e) {
      log.debug(
          "no boot ID in {}; the file store verifies its pointers once per JVM", LINUX_BOOT_ID, e);
    }
    return THIS_JVM;
  }
}

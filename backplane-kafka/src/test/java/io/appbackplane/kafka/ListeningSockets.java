package io.appbackplane.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets this JVM listens on, read from Linux's {@code /proc}: the socket inodes among
 * {@code /proc/self/fd}, matched against the LISTEN entries of {@code /proc/net/tcp} and {@code
 * /proc/net/tcp6}. Public in the module's test jar: the sample application's tests use it too.
 */
public final class ListeningSockets {

    /** A listening socket: its local address as {@code /proc} writes it (hex) and its port. */
    public record Listener(String family, String addressHex, int port) {

        /** 127.0.0.0/8, {@code ::1} or an IPv4-mapped 127.x address. */
        public boolean isLoopback() {
            if (family.equals("tcp")) {
                // little-endian IPv4: the first octet is the last byte
                return addressHex.endsWith("7F");
            }
            return addressHex.equals("00000000000000000000000001000000") // ::1
                    || addressHex.startsWith("0000000000000000FFFF0000") && addressHex.endsWith("7F"); // ::ffff:127.x
        }

        @Override
        public String toString() {
            return family + " " + addressHex + ":" + port;
        }
    }

    private ListeningSockets() {}

    /** Whether {@code /proc} can tell (Linux). */
    public static boolean available() {
        return Files.isDirectory(Path.of("/proc/self/fd")) && Files.isReadable(Path.of("/proc/net/tcp"));
    }

    public static List<Listener> ofThisProcess() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // the descriptor was closed while listing
                }
            }
        }
        List<Listener> listeners = new ArrayList<>();
        for (String family : List.of("tcp", "tcp6")) {
            Path table = Path.of("/proc/net", family);
            if (!Files.isReadable(table)) {
                continue;
            }
            List<String> lines = Files.readAllLines(table);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
                    String[] local = f[1].split(":");
                    listeners.add(new Listener(family, local[0], Integer.parseInt(local[1], 16)));
                }
            }
        }
        return listeners;
    }
}

package io.appbackplane.sample;

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
 * {@code /proc/self/fd} matched against the LISTEN entries of {@code /proc/net/tcp} and {@code
 * /proc/net/tcp6}. Each is {@code family hex-address:port}, as {@code /proc} writes the address.
 */
final class ListeningSockets {

    private ListeningSockets() {}

    static List<String> ofThisProcess() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed while listing
                }
            }
        }
        List<String> listening = new ArrayList<>();
        for (String family : List.of("tcp", "tcp6")) {
            Path table = Path.of("/proc/net", family);
            if (!Files.isReadable(table)) {
                continue;
            }
            List<String> lines = Files.readAllLines(table);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
                    String[] local = f[1].split(":");
                    listening.add(family + " " + local[0] + ":" + Integer.parseInt(local[1], 16));
                }
            }
        }
        return listening;
    }

    /** 127.0.0.0/8 (little-endian hex: the first octet is the last byte), ::1, or IPv4-mapped 127.x. */
    static boolean isLoopback(String listening) {
        String address = listening.substring(listening.indexOf(' ') + 1, listening.lastIndexOf(':'));
        if (listening.startsWith("tcp ")) {
            return address.endsWith("7F");
        }
        return address.equals("00000000000000000000000001000000")
                || address.startsWith("0000000000000000FFFF0000") && address.endsWith("7F");
    }
}

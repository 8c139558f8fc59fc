package io.appbackplane.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/configuration.md and the starter's generated configuration metadata name the same {@code
 * backplane.*} properties. Map-valued properties ({@code backplane.instances} and the like) are
 * expanded into {@code <map>.<placeholder>.<key>}, with the keys taken by reflection from the
 * fields of the map's value type (camelCase to kebab-case). The page's tables list a property in
 * their first column, either whole or, when the header's first cell names prefixes in backticks
 * (such as {@code `backplane.configs.<template>.`}), relative to each of them. Defaults in the
 * metadata must appear in the page's default column.
 */
class ConfigurationDocsTest {

    private static final Pattern PLACEHOLDER = Pattern.compile("<[\\w-]+>");

    /** Documented property (placeholders as written) → the row's default cell. */
    private static final Map<String, String> documented = new LinkedHashMap<>();

    /** Metadata property → default (null when none), expanded for maps. */
    private static final Map<String, String> metadata = new LinkedHashMap<>();

    @BeforeAll
    static void read() throws Exception {
        readPage(Files.readAllLines(Path.of("../docs/configuration.md")));
        readMetadata();
    }

    @Test
    void everyPropertyInTheMetadataIsDocumented() {
        Set<String> names = new TreeSet<>();
        documented.keySet().forEach(p -> names.add(generic(p)));
        List<String> missing = metadata.keySet().stream().filter(p -> !names.contains(p)).toList();
        assertThat(missing).as("backplane.* properties missing from docs/configuration.md's tables").isEmpty();
        assertThat(metadata).as("the metadata was read").containsKey("backplane.role");
    }

    @Test
    void everyDocumentedPropertyExists() {
        List<String> unknown = documented.keySet().stream().filter(p -> !metadata.containsKey(generic(p))).toList();
        assertThat(unknown).as("properties in docs/configuration.md that the starter does not have").isEmpty();
    }

    @Test
    void everyDefaultInTheMetadataIsTheDocumentedDefault() {
        List<String> wrong = new ArrayList<>();
        documented.forEach((property, cell) -> {
            String def = metadata.get(generic(property));
            if (def != null && !cell.replace("`", "").contains(def)) {
                wrong.add(property + ": metadata default '" + def + "', page says '" + cell + "'");
            }
        });
        assertThat(wrong).isEmpty();
    }

    /** Placeholders made uniform, so `<name>` and `<template>` compare equal. */
    private static String generic(String property) {
        return PLACEHOLDER.matcher(property).replaceAll("<*>");
    }

    private static void readPage(List<String> lines) {
        List<String> prefixes = List.of();
        boolean inTable = false;
        for (String line : lines) {
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            List<String> cells = cells(line);
            if (!inTable) { // the header row
                inTable = true;
                List<String> found = new ArrayList<>();
                Matcher m = Pattern.compile("`(backplane\\.[^`]*\\.)`").matcher(cells.get(0));
                while (m.find()) {
                    found.add(m.group(1));
                }
                prefixes = found;
                continue;
            }
            if (cells.get(0).matches("-+")) {
                continue;
            }
            Matcher name = Pattern.compile("^`([^`]+)`").matcher(cells.get(0));
            if (!name.find()) {
                continue;
            }
            String key = name.group(1);
            String def = cells.size() > 1 ? cells.get(1) : "";
            if (prefixes.isEmpty()) {
                if (key.startsWith("backplane.")) {
                    documented.put(key, def);
                }
            } else {
                for (String prefix : prefixes) {
                    documented.put(prefix + key, def);
                }
            }
        }
    }

    private static List<String> cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }

    private static void readMetadata() throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        for (URL url : Collections.list(ConfigurationDocsTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            JsonNode root;
            try (InputStream in = url.openStream()) {
                root = json.readTree(in);
            }
            for (JsonNode property : root.get("properties")) {
                String name = property.get("name").asString();
                if (!name.startsWith("backplane.")) {
                    continue;
                }
                String type = property.get("type").asString();
                JsonNode def = property.get("defaultValue");
                if (type.startsWith("java.util.Map<java.lang.String,")) {
                    Class<?> valueType = Class.forName(type.substring("java.util.Map<java.lang.String,".length(), type.length() - 1));
                    for (String key : keys(valueType)) {
                        metadata.put(name + ".<*>." + key, null);
                    }
                } else {
                    metadata.put(name, def == null || def.isNull() ? null : def.asString());
                }
            }
        }
    }

    /** The bindable keys of a properties class: its and its superclasses' instance fields, in kebab-case. */
    private static List<String> keys(Class<?> type) {
        List<String> keys = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !field.isSynthetic()) {
                    keys.add(field.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return keys;
    }
}

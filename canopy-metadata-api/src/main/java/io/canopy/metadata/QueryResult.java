package io.canopy.metadata;

import java.util.List;

/** Rows of an administrative query, all values rendered as text ({@code null} kept as null). */
public record QueryResult(List<String> columns, List<List<String>> rows, boolean truncated) {
}

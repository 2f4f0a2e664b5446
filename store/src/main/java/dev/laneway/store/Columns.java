package dev.laneway.store;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;

/**
 * Column encodings shared by the tables: queue modes and drop policies by their canonical id
 * ({@code steer-backlog}, {@code summarize}), durations in whole milliseconds (the only precision
 * {@link dev.laneway.core.Durations} produces), booleans as 0/1, nullable integers as SQL NULL.
 */
final class Columns {

    private Columns() {
    }

    static String mode(QueueMode mode) {
        return mode == null ? null : mode.id();
    }

    static QueueMode mode(String id, String where) {
        if (id == null) {
            return null;
        }
        return QueueMode.parse(id).orElseThrow(() -> new IllegalStateException("unknown queue mode '" + id + "' in " + where));
    }

    static String drop(DropPolicy drop) {
        return drop == null ? null : drop.id();
    }

    static DropPolicy drop(String id, String where) {
        if (id == null) {
            return null;
        }
        return DropPolicy.parse(id).orElseThrow(() -> new IllegalStateException("unknown drop policy '" + id + "' in " + where));
    }

    static Long millis(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    static Duration duration(Long millis) {
        return millis == null ? null : Duration.ofMillis(millis);
    }

    static void setNullableLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setLong(index, value);
        }
    }

    static void setNullableInt(PreparedStatement statement, int index, Integer value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setInt(index, value);
        }
    }

    static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    static Integer nullableInt(ResultSet row, String column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
    }
}

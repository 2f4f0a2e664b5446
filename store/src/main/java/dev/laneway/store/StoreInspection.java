package dev.laneway.store;

/**
 * What {@code laneway doctor} reads of a store without changing it (docs/configuration.md §18.2).
 *
 * @param where   the store's file, or its Redis URL with credentials masked
 * @param version the store's schema version, or null when there is no store there yet
 * @param latest  the schema version this Laneway writes
 */
public record StoreInspection(String where, Integer version, int latest) {

    /** One line: "schema version 5 (current)", "schema version 3 (the next run migrates it to 5)", "none yet". */
    public String describe() {
        if (version == null) {
            return where + ": no store yet (the first run creates it, schema version " + latest + ")";
        }
        return where + ": schema version " + version
                + (version == latest ? " (current)" : " (the next run migrates it to " + latest + ")");
    }
}

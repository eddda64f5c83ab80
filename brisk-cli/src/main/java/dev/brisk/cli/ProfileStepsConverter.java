package dev.brisk.cli;

import dev.brisk.profile.ProfileWindow;

/** Parses {@code --profile-steps FIRST-LAST} (e.g. {@code 11-15}); anything else is an invalid value. */
final class ProfileStepsConverter {
    private ProfileStepsConverter() {
    }

    /** The window, or an {@link IllegalArgumentException} saying what was expected. */
    static ProfileWindow convert(String value) {
        String[] parts = value.split("-", -1);
        if (parts.length == 2) {
            int first;
            int last;
            try {
                first = Integer.parseInt(parts[0].trim());
                last = Integer.parseInt(parts[1].trim());
            } catch (NumberFormatException e) {
                throw expected(value);
            }
            return new ProfileWindow(first, last); // its own message for 9-3 or 0-4
        }
        throw expected(value);
    }

    private static IllegalArgumentException expected(String value) {
        return new IllegalArgumentException("expected FIRST-LAST, e.g. 11-15, but was '" + value + "'");
    }
}

package dev.brisk.cli;

import dev.brisk.profile.ProfileWindow;
import picocli.CommandLine;

/** Parses {@code --profile-steps FIRST-LAST} (e.g. {@code 11-15}); anything else is a usage error. */
final class ProfileStepsConverter implements CommandLine.ITypeConverter<ProfileWindow> {
    @Override
    public ProfileWindow convert(String value) {
        String[] parts = value.split("-", -1);
        try {
            if (parts.length == 2) {
                return new ProfileWindow(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            }
        } catch (NumberFormatException e) {
            // reported below
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
        throw new CommandLine.TypeConversionException("expected FIRST-LAST, e.g. 11-15, but was '" + value + "'");
    }
}

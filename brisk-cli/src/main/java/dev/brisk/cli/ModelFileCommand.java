package dev.brisk.cli;

import dev.brisk.keras.KerasModels;
import dev.brisk.nn.Model;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.Options;

/** A command that reads a whole-model {@code .keras} file given with {@code --model FILE}. */
abstract class ModelFileCommand extends Subcommand {
    Path model;

    ModelFileCommand(String name, List<String> description, Options options) {
        super(name, description, options);
    }

    @Override
    void read(OptionValues v) {
        model = v.path("model", null); // required: the parser has checked it is there
    }

    /** The model, loaded with its optimizer state; a bad file is an IOException naming it and the entry. */
    Model load() throws IOException {
        return KerasModels.load(model);
    }
}

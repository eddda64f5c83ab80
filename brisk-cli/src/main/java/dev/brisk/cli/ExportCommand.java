package dev.brisk.cli;

import dev.brisk.nn.Model;
import dev.brisk.onnx.OnnxExport;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.Options;

/** {@code brisk export --model FILE.keras --onnx FILE.onnx}: a saved model's inference graph as an ONNX model. */
final class ExportCommand extends ModelFileCommand {
    private static final List<String> DESCRIPTION = List.of(
            "Exports a model saved in a .keras file for inference as an ONNX model (opset " + OnnxExport.OPSET
                    + ", any batch size; docs/onnx.md).");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.required("model", "FILE", "The .keras file (written by brisk train --save or Keras 3)."),
            CliOptions.required("onnx", "FILE", "The ONNX file to write."));

    Path onnx;

    ExportCommand() {
        super("export", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        super.read(v);
        onnx = v.path("onnx", null); // required: the parser has checked it is there
    }

    @Override
    int call() throws Exception {
        OptionRules.check(OptionRules.notDirectory("--onnx", onnx, "model.onnx"));
        Model m = load();
        OnnxExport.export(m, onnx);
        System.out.printf(Locale.ROOT, "ONNX model (opset %d) of %s written to %s%n", OnnxExport.OPSET, model, onnx);
        System.out.flush();
        return 0;
    }
}

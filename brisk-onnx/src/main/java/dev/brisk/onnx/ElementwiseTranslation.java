package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;

import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * UNARY and BINARY nodes as ONNX's elementwise operators. Both broadcast as NumPy does, as Brisk's BINARY does. The
 * gradient functions have no translation: they never appear in an inference graph.
 */
final class ElementwiseTranslation {
    /** sqrt(1/2): gelu(x) = x * (1 + erf(x * sqrt(1/2))) / 2, Brisk's exact gelu (Keras' approximate=False). */
    private static final float SQRT_HALF = (float) Math.sqrt(0.5);

    /** The element functions of one input that {@link #unary} translates (all of them). */
    static final Set<UnaryFn> UNARY = EnumSet.of(UnaryFn.NEG, UnaryFn.EXP, UnaryFn.LOG, UnaryFn.SQRT, UnaryFn.RSQRT,
            UnaryFn.SQUARE, UnaryFn.ABS, UnaryFn.RECIPROCAL, UnaryFn.RELU, UnaryFn.SIGMOID, UnaryFn.TANH, UnaryFn.GELU,
            UnaryFn.LEAKY_RELU, UnaryFn.SCALE, UnaryFn.ADD_SCALAR, UnaryFn.CLIP_PROB, UnaryFn.NON_FINITE);
    /** The element functions of two inputs that {@link #binary} translates; the rest are gradients. */
    static final Set<BinaryFn> BINARY = EnumSet.of(BinaryFn.ADD, BinaryFn.SUB, BinaryFn.MUL, BinaryFn.DIV,
            BinaryFn.MAX, BinaryFn.MIN, BinaryFn.GREATER);

    private ElementwiseTranslation() {
    }

    static String unary(NodeTranslator t, Node n, String layer) {
        OnnxGraph g = t.graph();
        UnaryAttrs a = n.attrs(UnaryAttrs.class);
        String x = t.in(n, 0);
        String b = t.base(n);
        return switch (a.fn()) {
            case NEG -> g.node("Neg", b, List.of(x));
            case EXP -> g.node("Exp", b, List.of(x));
            case LOG -> g.node("Log", b, List.of(x));
            case SQRT -> g.node("Sqrt", b, List.of(x));
            case RSQRT -> g.node("Reciprocal", b, List.of(g.node("Sqrt", b + "/sqrt", List.of(x))));
            case SQUARE -> g.node("Mul", b, List.of(x, x));
            case ABS -> g.node("Abs", b, List.of(x));
            case RECIPROCAL -> g.node("Reciprocal", b, List.of(x));
            case RELU -> g.node("Relu", b, List.of(x));
            case SIGMOID -> g.node("Sigmoid", b, List.of(x));
            case TANH -> g.node("Tanh", b, List.of(x));
            case GELU -> {
                // Opset 17 has no Gelu: x * (0.5 * (1 + erf(x * sqrt(1/2)))), ONNX's own expansion of Gelu.
                String erf = g.node("Erf", b + "/erf",
                        List.of(g.node("Mul", b + "/scaled", List.of(x, g.floatScalar(SQRT_HALF)))));
                String cdf = g.node("Mul", b + "/cdf", List.of(
                        g.node("Add", b + "/one_plus_erf", List.of(erf, g.floatScalar(1f))), g.floatScalar(0.5f)));
                yield g.node("Mul", b, List.of(x, cdf));
            }
            case LEAKY_RELU -> g.node("LeakyRelu", b, List.of(x), attr("alpha", a.alpha()));
            case SCALE -> g.node("Mul", b, List.of(x, g.floatScalar(a.alpha())));
            case ADD_SCALAR -> g.node("Add", b, List.of(x, g.floatScalar(a.alpha())));
            case CLIP_PROB -> g.node("Clip", b, List.of(x, g.floatScalar(a.alpha()), g.floatScalar(1 - a.alpha())));
            case NON_FINITE -> {
                String bad = g.node("Or", b + "/bad", List.of(g.node("IsNaN", b + "/nan", List.of(x)),
                        g.node("IsInf", b + "/inf", List.of(x))));
                yield g.node("Cast", b, List.of(bad), attr("to", NodeTranslator.FLOAT));
            }
            default -> throw new OnnxExportException(layer + ": op UNARY has fn=" + a.fn()
                    + ", which the ONNX exporter does not translate");
        };
    }

    static String binary(NodeTranslator t, Node n, String layer) {
        OnnxGraph g = t.graph();
        BinaryAttrs a = n.attrs(BinaryAttrs.class);
        List<String> xy = List.of(t.in(n, 0), t.in(n, 1));
        String b = t.base(n);
        return switch (a.fn()) {
            case ADD -> g.node("Add", b, xy);
            case SUB -> g.node("Sub", b, xy);
            case MUL -> g.node("Mul", b, xy);
            case DIV -> g.node("Div", b, xy);
            case MAX -> g.node("Max", b, xy);
            case MIN -> g.node("Min", b, xy);
            case GREATER -> g.node("Cast", b, List.of(g.node("Greater", b + "/greater", xy)),
                    attr("to", NodeTranslator.FLOAT));
            default -> throw new OnnxExportException(layer + ": op BINARY has fn=" + a.fn() + ", which the ONNX"
                    + " exporter does not translate" + (a.fn().name().endsWith("_GRAD")
                    ? " (a gradient, which belongs to training)" : ""));
        };
    }
}

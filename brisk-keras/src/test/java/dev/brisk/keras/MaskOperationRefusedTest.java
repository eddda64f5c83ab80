package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.DType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keras 3 (3.10-3.15 as well as earlier) writes a functional model in which {@code Embedding(mask_zero=True)} feeds
 * a layer with a {@code mask} argument with the padding mask as that call's {@code mask} keyword argument, a tensor
 * made by a {@code not_equal} operation that is itself an entry of the layer list
 * ({@code keras/src/layers/layer.py __call__} step 6 fills {@code mask} into the call's own kwargs, which the node
 * records; {@code Embedding.compute_mask} is {@code ops.not_equal(inputs, 0)}). Brisk does not read such files yet:
 * the refusal names the operation.
 */
class MaskOperationRefusedTest {
    @Test
    @SuppressWarnings("unchecked")
    void anEmbeddingsMaskRecordedAsAnOperationIsRefusedNamingIt() throws Exception {
        SymbolicTensor ids = Input.of(DType.INT32, 5);
        SymbolicTensor y = Layers.lstm(3).apply(Layers.embedding(10, 4, true).apply(ids));
        Model m = Model.of(List.of(ids), List.of(y));
        Map<String, Object> config = Json.parseObject(Json.write(ModelConfig.of(m)));
        List<Object> layers = (List<Object>) ((Map<String, Object>) config.get("config")).get("layers");
        Map<String, Object> input = (Map<String, Object>) layers.get(0);
        String inputName = (String) input.get("name");
        // As Keras writes it: {"module": "keras.src.ops.numpy", "class_name": "NotEqual", ...} called on (ids, 0).
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("module", "keras.src.ops.numpy");
        op.put("class_name", "NotEqual");
        op.put("config", Map.of("name", "not_equal"));
        op.put("registered_name", "NotEqual");
        op.put("name", "not_equal");
        Map<String, Object> idsTensor = Map.of("class_name", "__keras_tensor__", "config",
                Map.of("shape", java.util.Arrays.asList(null, 5), "dtype", "int32",
                        "keras_history", List.of(inputName, 0, 0)));
        op.put("inbound_nodes", List.of(Map.of("args", List.of(idsTensor, 0), "kwargs", Map.of())));
        layers.add(1, op);
        Map<String, Object> lstm = (Map<String, Object>) layers.get(layers.size() - 1);
        Map<String, Object> node = (Map<String, Object>) ((List<Object>) lstm.get("inbound_nodes")).get(0);
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("mask", Map.of("class_name", "__keras_tensor__", "config",
                Map.of("shape", java.util.Arrays.asList(null, 5), "dtype", "bool",
                        "keras_history", new ArrayList<>(List.of("not_equal", 0, 0)))));
        node.put("kwargs", kwargs);
        ConfigError e = assertThrows(ConfigError.class, () -> ModelConfig.build(config, KerasRegistry.builtIn()));
        assertTrue(e.getMessage().contains("'not_equal' (NotEqual)") && e.getMessage().contains("mask_zero"),
                e.getMessage());
    }
}

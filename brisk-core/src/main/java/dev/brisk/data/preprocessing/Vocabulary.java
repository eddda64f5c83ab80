package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A map from tokens (characters or words) to integer ids and back, after Keras' {@code StringLookup} with a mask
 * token: id {@value #PADDING} is padding (what {@code Embedding(maskZero)} and {@code Pipeline.paddedBatch} take as
 * "no token"), id {@value #OOV} stands for every token outside the vocabulary ({@code [UNK]}), and the known tokens
 * follow from id 2. A vocabulary {@linkplain #adapt adapted} to text orders its tokens as Keras' {@code adapt} does,
 * the most frequent first, with ties in descending token order ({@link #fromCounts}), so the same text always gives
 * the same ids as in Keras.
 * With {@code k} out-of-vocabulary ids (Keras' {@code num_oov_indices}; {@link #of(List, int)}) ids 1 to {@code k}
 * are for unknown tokens, each going to id {@code 1 + Fingerprint64(token) mod k} as Keras hashes them (FarmHash,
 * as {@link Hashing}), and the known tokens follow from {@code k + 1}; with none, an unknown token is an error.
 * {@link #inverse} is Keras' {@code invert=True}.
 *
 * <p>Ids are INT32 ({@link Tensor#ofInts}), the dtype {@code Embedding} reads; as class-index targets of a sparse
 * cross-entropy (next-token prediction) they are exact as floats, since a vocabulary holds far fewer than 2^24
 * tokens. Immutable and safe to share between pipeline workers.
 */
public final class Vocabulary {
    /** The id of padding (Keras' mask token). */
    public static final int PADDING = 0;
    /** The id of every token outside the vocabulary (the first such id when there are several). */
    public static final int OOV = 1;
    /** How {@link #token} shows padding: the empty string, Keras' default mask token. */
    public static final String PADDING_TOKEN = "";
    /** How {@link #token} shows an unknown token: Keras' default OOV token. */
    public static final String OOV_TOKEN = "[UNK]";

    /** Keras' {@code TextVectorization} punctuation, stripped by {@link #words}. */
    private static final Pattern PUNCTUATION = Pattern.compile("[!\"#$%&()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~']");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final List<String> tokens;
    private final Map<String, Integer> ids;
    private final int numOovIndices;

    private Vocabulary(List<String> known, int numOovIndices) {
        if (numOovIndices < 0) {
            throw new IllegalArgumentException("a vocabulary needs num_oov_indices of at least 0, got "
                    + numOovIndices);
        }
        this.numOovIndices = numOovIndices;
        List<String> all = new ArrayList<>(known.size() + 1 + numOovIndices);
        all.add(PADDING_TOKEN);
        all.addAll(Collections.nCopies(numOovIndices, OOV_TOKEN));
        Map<String, Integer> index = new HashMap<>();
        for (String t : known) {
            if (t == null || t.isEmpty()) {
                throw new IllegalArgumentException("vocabulary token " + all.size() + " is "
                        + (t == null ? "null" : "empty") + "; the empty token is padding (id 0)");
            }
            if (index.putIfAbsent(t, all.size()) != null) {
                throw new IllegalArgumentException("vocabulary token '" + t + "' appears twice (ids "
                        + index.get(t) + " and " + all.size() + ")");
            }
            all.add(t);
        }
        this.tokens = Collections.unmodifiableList(all);
        this.ids = index;
    }

    /**
     * A vocabulary of exactly these tokens, in this order, from id 2 (Keras' {@code StringLookup(vocabulary=...)}).
     *
     * @param tokens the known tokens, none empty, none twice
     * @return the vocabulary
     * @throws IllegalArgumentException naming an empty or repeated token
     */
    public static Vocabulary of(List<String> tokens) {
        return new Vocabulary(tokens, 1);
    }

    /**
     * A vocabulary of exactly these tokens with {@code numOovIndices} out-of-vocabulary ids (Keras'
     * {@code StringLookup(vocabulary=..., num_oov_indices=k, mask_token="")}): the tokens from id {@code k + 1}.
     *
     * @param tokens the known tokens, none empty, none twice
     * @param numOovIndices the number of out-of-vocabulary ids: 0 (an unknown token is an error), 1 or more
     * @return the vocabulary
     * @throws IllegalArgumentException naming an empty or repeated token
     */
    public static Vocabulary of(List<String> tokens, int numOovIndices) {
        return new Vocabulary(tokens, numOovIndices);
    }

    /**
     * A vocabulary adapted to a stream of tokens: every distinct token, the most frequent first (ties as
     * {@link #fromCounts} breaks them, as Keras does), at most {@code maxTokens} ids in all including padding and OOV (Keras' {@code
     * max_tokens}); the rarer tokens left out map to {@link #OOV}.
     *
     * @param tokens the tokens seen, in any order
     * @param maxTokens the largest vocabulary size, at least 2, or 0 for no limit
     * @return the vocabulary
     */
    public static Vocabulary adapt(Iterable<String> tokens, int maxTokens) {
        return adapt(tokens, maxTokens, 1);
    }

    /**
     * A vocabulary adapted to a stream of tokens with {@code numOovIndices} out-of-vocabulary ids, which count
     * toward {@code maxTokens} with padding, as in Keras.
     *
     * @param tokens the tokens seen, in any order
     * @param maxTokens the largest vocabulary size, more than {@code 1 + numOovIndices}, or 0 for no limit
     * @param numOovIndices the number of out-of-vocabulary ids, at least 0
     * @return the vocabulary
     */
    public static Vocabulary adapt(Iterable<String> tokens, int maxTokens, int numOovIndices) {
        Map<String, Long> counts = new HashMap<>();
        for (String t : tokens) {
            if (t != null) {
                counts.merge(t, 1L, Long::sum);
            }
        }
        return fromCounts(counts, maxTokens, numOovIndices);
    }

    /**
     * A vocabulary from token counts, ordered as Keras' {@code adapt} orders them: the most frequent first, and
     * tokens of equal count in <em>descending</em> order of their UTF-8 bytes (Keras sorts with
     * {@code np.lexsort((tokens, counts))[::-1]}, which reverses the token order as well as the count order). The
     * empty token (padding) and {@link #OOV_TOKEN} are left out, as Keras removes its mask and OOV tokens from the
     * counts. A reader that counts as it streams (a CSV column) uses this to avoid keeping every token.
     *
     * @param counts how often each token was seen
     * @param maxTokens the largest vocabulary size, more than {@code 1 + numOovIndices}, or 0 for no limit
     * @param numOovIndices the number of out-of-vocabulary ids, at least 0
     * @return the vocabulary
     */
    public static Vocabulary fromCounts(Map<String, Long> counts, int maxTokens, int numOovIndices) {
        int reserved = 1 + Math.max(numOovIndices, 1);
        if (maxTokens != 0 && maxTokens < reserved) {
            throw new IllegalArgumentException("maxTokens must be 0 (no limit) or at least " + reserved
                    + " (padding and OOV), got " + maxTokens);
        }
        List<Map.Entry<String, Long>> entries = new ArrayList<>();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            if (!e.getKey().isEmpty() && !e.getKey().equals(OOV_TOKEN)) {
                entries.add(e);
            }
        }
        // UTF-8 byte order is code point order, which String.compareTo (UTF-16 units) is not above U+FFFF.
        entries.sort((a, b) -> !a.getValue().equals(b.getValue()) ? Long.compare(b.getValue(), a.getValue())
                : Arrays.compare(b.getKey().codePoints().toArray(), a.getKey().codePoints().toArray()));
        int keep = maxTokens == 0 ? entries.size() : Math.min(entries.size(), maxTokens - 1 - numOovIndices);
        List<String> known = new ArrayList<>(keep);
        for (int i = 0; i < keep; i++) {
            known.add(entries.get(i).getKey());
        }
        return new Vocabulary(known, numOovIndices);
    }

    /**
     * A vocabulary of the characters (Unicode code points) of {@code text}, the most frequent first.
     *
     * @param text the text to adapt to
     * @return the vocabulary, one token per distinct character
     */
    public static Vocabulary ofCharacters(CharSequence text) {
        return adapt(characters(text), 0);
    }

    /**
     * A vocabulary of the {@linkplain #words words} of {@code text}, the most frequent first, at most {@code maxTokens}
     * ids in all.
     *
     * @param text the text to adapt to
     * @param maxTokens the largest vocabulary size, at least 2, or 0 for no limit
     * @return the vocabulary
     */
    public static Vocabulary ofWords(CharSequence text, int maxTokens) {
        return adapt(words(text), maxTokens);
    }

    /**
     * The characters (Unicode code points) of {@code text}, each as a string.
     *
     * @param text the text
     * @return one string per code point, in order
     */
    public static List<String> characters(CharSequence text) {
        List<String> out = new ArrayList<>(text.length());
        text.codePoints().forEach(cp -> out.add(Character.toString(cp)));
        return out;
    }

    /**
     * The words of {@code text} as Keras' {@code TextVectorization} splits them by default: lower-cased, its
     * punctuation removed, split at whitespace.
     *
     * @param text the text
     * @return the words, in order, none empty
     */
    public static List<String> words(CharSequence text) {
        String standard = PUNCTUATION.matcher(text.toString().toLowerCase(Locale.ROOT)).replaceAll("");
        List<String> out = new ArrayList<>();
        for (String w : WHITESPACE.split(standard)) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /**
     * The number of ids, padding and OOV included: the {@code inputDim} of an {@code Embedding} over these ids and
     * the number of classes of a next-token output.
     *
     * @return the vocabulary size
     */
    public int size() {
        return tokens.size();
    }

    /**
     * The id of {@code token}: {@link #PADDING} for the empty string; for a token outside the vocabulary
     * {@link #OOV}, or with several out-of-vocabulary ids the one its FarmHash fingerprint picks, as Keras does.
     *
     * @param token the token
     * @return its id
     * @throws IllegalArgumentException for a token outside the vocabulary when there are no out-of-vocabulary ids
     */
    public int id(String token) {
        if (token.isEmpty()) {
            return PADDING;
        }
        Integer known = ids.get(token);
        if (known != null) {
            return known;
        }
        if (numOovIndices == 0) {
            throw new IllegalArgumentException("token '" + token + "' is not in the vocabulary and there are no "
                    + "out-of-vocabulary ids (num_oov_indices=0)");
        }
        if (numOovIndices == 1) {
            return OOV;
        }
        long hash = FarmHash.fingerprint64(token.getBytes(StandardCharsets.UTF_8));
        return OOV + (int) Long.remainderUnsigned(hash, numOovIndices);
    }

    /**
     * The token of {@code id}: {@link #PADDING_TOKEN} for 0, {@link #OOV_TOKEN} for the out-of-vocabulary ids.
     *
     * @param id an id in {@code [0, size())}
     * @return the token
     * @throws IllegalArgumentException for an id outside the vocabulary, naming it and the size
     */
    public String token(int id) {
        if (id < 0 || id >= tokens.size()) {
            throw new IllegalArgumentException("id " + id + " is outside the vocabulary of " + tokens.size()
                    + " ids [0, " + tokens.size() + ")");
        }
        return tokens.get(id);
    }

    /**
     * All tokens by id, padding and OOV first (Keras' {@code get_vocabulary()}).
     *
     * @return an unmodifiable list of {@link #size()} tokens
     */
    public List<String> tokens() {
        return tokens;
    }

    /**
     * The ids of a sequence of tokens.
     *
     * @param sequence the tokens
     * @return one id per token
     */
    public int[] encode(List<String> sequence) {
        int[] out = new int[sequence.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = id(sequence.get(i));
        }
        return out;
    }

    /**
     * The ids of the characters of {@code text}, one per code point (for a vocabulary of characters).
     *
     * @param text the text
     * @return one id per character
     */
    public int[] encodeCharacters(CharSequence text) {
        return text.codePoints().map(cp -> id(Character.toString(cp))).toArray();
    }

    /**
     * The tokens of {@code ids} joined by {@code separator} ("" for characters, " " for words), padding left out.
     *
     * @param ids the ids
     * @param separator put between tokens
     * @return the text
     * @throws IllegalArgumentException for an id outside the vocabulary
     */
    public String decode(int[] ids, String separator) {
        StringBuilder sb = new StringBuilder();
        for (int id : ids) {
            String t = token(id);
            if (id == PADDING) {
                continue;
            }
            if (!sb.isEmpty()) {
                sb.append(separator);
            }
            sb.append(t);
        }
        return sb.toString();
    }

    /**
     * A pipeline map function from text to its character ids, an INT32 tensor {@code (characters,)}
     * ({@code Pipeline<String>.map(vocabulary.characterLookup())}).
     *
     * @return the lookup
     */
    public Function<String, Tensor> characterLookup() {
        return text -> {
            int[] idsOf = encodeCharacters(text);
            return Tensor.ofInts(idsOf, idsOf.length);
        };
    }

    /**
     * A pipeline map function from text to the ids of its {@linkplain #words words}, an INT32 tensor
     * {@code (words,)}, as Keras' {@code TextVectorization(output_mode="int")} without a fixed length (pad them
     * with {@code Pipeline.paddedBatch}).
     *
     * @return the lookup
     */
    public Function<String, Tensor> wordLookup() {
        return text -> {
            int[] idsOf = encode(words(text));
            return Tensor.ofInts(idsOf, idsOf.length);
        };
    }

    /**
     * Keras' {@code StringLookup(invert=True)} over the same vocabulary: ids back to tokens, in the tensor's
     * row-major order. Id 0 gives {@link #PADDING_TOKEN}, and an out-of-vocabulary id or one outside
     * {@code [0, size())} gives {@link #OOV_TOKEN}, as in Keras (where {@link #token} refuses an id outside).
     *
     * @return the inverse lookup, for INT32 or integer-valued float32 ids
     */
    public Function<Tensor, List<String>> inverse() {
        return idTensor -> {
            List<String> out = new ArrayList<>(idTensor.size());
            for (int i = 0; i < idTensor.size(); i++) {
                long id = IntegerValues.at(idTensor, i, "Vocabulary inverse");
                out.add(id >= 0 && id < tokens.size() ? tokens.get((int) id) : OOV_TOKEN);
            }
            return out;
        };
    }

    @Override
    public String toString() {
        return "Vocabulary[" + size() + " ids: padding, " + numOovIndices + " OOV and "
                + (size() - 1 - numOovIndices) + " tokens]";
    }
}

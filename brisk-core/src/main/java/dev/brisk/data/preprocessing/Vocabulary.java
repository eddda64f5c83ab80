package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
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
 * the most frequent first, with ties broken by the token's natural order, so the same text always gives the same ids.
 *
 * <p>Ids are INT32 ({@link Tensor#ofInts}), the dtype {@code Embedding} reads; as class-index targets of a sparse
 * cross-entropy (next-token prediction) they are exact as floats, since a vocabulary holds far fewer than 2^24
 * tokens. Immutable and safe to share between pipeline workers.
 */
public final class Vocabulary {
    /** The id of padding (Keras' mask token). */
    public static final int PADDING = 0;
    /** The id of every token outside the vocabulary. */
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

    private Vocabulary(List<String> known) {
        List<String> all = new ArrayList<>(known.size() + 2);
        all.add(PADDING_TOKEN);
        all.add(OOV_TOKEN);
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
        return new Vocabulary(tokens);
    }

    /**
     * A vocabulary adapted to a stream of tokens: every distinct token, the most frequent first (ties in the
     * tokens' natural order), at most {@code maxTokens} ids in all including padding and OOV (Keras' {@code
     * max_tokens}); the rarer tokens left out map to {@link #OOV}.
     *
     * @param tokens the tokens seen, in any order
     * @param maxTokens the largest vocabulary size, at least 2, or 0 for no limit
     * @return the vocabulary
     */
    public static Vocabulary adapt(Iterable<String> tokens, int maxTokens) {
        if (maxTokens != 0 && maxTokens < 2) {
            throw new IllegalArgumentException("maxTokens must be 0 (no limit) or at least 2 (padding and OOV), got "
                    + maxTokens);
        }
        Map<String, long[]> counts = new HashMap<>();
        for (String t : tokens) {
            if (t != null && !t.isEmpty()) {
                counts.computeIfAbsent(t, k -> new long[1])[0]++;
            }
        }
        List<Map.Entry<String, long[]>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Long.compare(b.getValue()[0], a.getValue()[0])
                : a.getKey().compareTo(b.getKey()));
        int keep = maxTokens == 0 ? entries.size() : Math.min(entries.size(), maxTokens - 2);
        List<String> known = new ArrayList<>(keep);
        for (int i = 0; i < keep; i++) {
            known.add(entries.get(i).getKey());
        }
        return new Vocabulary(known);
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
     * The id of {@code token}: {@link #OOV} for a token outside the vocabulary, {@link #PADDING} for the empty string.
     *
     * @param token the token
     * @return its id
     */
    public int id(String token) {
        if (token.isEmpty()) {
            return PADDING;
        }
        return ids.getOrDefault(token, OOV);
    }

    /**
     * The token of {@code id}: {@link #PADDING_TOKEN} for 0, {@link #OOV_TOKEN} for 1.
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

    @Override
    public String toString() {
        return "Vocabulary[" + size() + " ids: padding, OOV and " + (size() - 2) + " tokens]";
    }
}

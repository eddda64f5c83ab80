package dev.brisk.keras;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The zip archive of a {@code .keras} file. Written as Keras writes it (entries stored, not compressed:
 * {@code metadata.json}, {@code config.json}, {@code model.weights.h5}). Read defensively: the central directory
 * must be intact, every entry name must be a plain relative name (no {@code ..}, no absolute path, no drive or
 * backslash: a traversal attempt is refused even though nothing is extracted to disk), names may not repeat, and
 * each entry is read through a counter that stops at the entry's limit and at a compression ratio no weights file
 * has (a zip bomb), whatever sizes the headers claim, before its bytes are held. The zip CRC-32 of every entry it
 * reads is checked.
 */
final class KerasArchive {
    static final String METADATA = "metadata.json";
    static final String CONFIG = "config.json";
    static final String WEIGHTS = "model.weights.h5";
    /** The largest JSON entry accepted (Keras' config of a large model is well under 1 MiB). */
    static final long MAX_JSON_BYTES = 16L << 20;
    /** The most entries an archive may have (Keras writes three, plus any assets). */
    static final int MAX_ENTRIES = 1024;
    /** A deflated entry may expand at most this much: float weights compress by far less. */
    static final long MAX_RATIO = 100;

    private KerasArchive() {
    }

    /** The three entries' bytes. */
    record Contents(byte[] metadata, byte[] config, byte[] weights) {
    }

    static void write(OutputStream os, byte[] metadata, byte[] config, byte[] weights) throws IOException {
        ZipOutputStream zip = new ZipOutputStream(os);
        stored(zip, METADATA, metadata);
        stored(zip, CONFIG, config);
        stored(zip, WEIGHTS, weights);
        zip.finish();
    }

    private static void stored(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setMethod(ZipEntry.STORED);
        e.setSize(bytes.length);
        e.setCompressedSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        e.setCrc(crc.getValue());
        zip.putNextEntry(e);
        zip.write(bytes);
        zip.closeEntry();
    }

    static Contents read(Path file, long maxWeightsBytes) throws KerasFileException {
        Map<String, byte[]> found = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(file.toFile())) {
            Set<String> names = new HashSet<>();
            Enumeration<? extends ZipEntry> entries = zip.entries();
            int count = 0;
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                String name = e.getName();
                if (++count > MAX_ENTRIES) {
                    throw new KerasFileException(file, null, "more than " + MAX_ENTRIES + " entries");
                }
                checkName(file, name);
                if (!names.add(name)) {
                    throw new KerasFileException(file, name, "the entry appears twice");
                }
                long limit = switch (name) {
                    case METADATA, CONFIG -> MAX_JSON_BYTES;
                    case WEIGHTS -> maxWeightsBytes;
                    default -> -1;
                };
                if (limit < 0) {
                    continue; // assets and anything else a newer Keras adds: not read
                }
                found.put(name, bytes(zip, e, file, limit));
            }
        } catch (KerasFileException e) {
            throw e;
        } catch (ZipException e) {
            throw new KerasFileException(file, null, "not a readable zip archive (truncated or damaged?): "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new KerasFileException(file, null, "cannot be read: " + e, e);
        }
        for (String required : new String[] {METADATA, CONFIG, WEIGHTS}) {
            if (!found.containsKey(required)) {
                throw new KerasFileException(file, required, "missing from the archive (found " + found.keySet()
                        + ")");
            }
        }
        return new Contents(found.get(METADATA), found.get(CONFIG), found.get(WEIGHTS));
    }

    private static void checkName(Path file, String name) throws KerasFileException {
        boolean bad = name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.contains(":")
                || name.indexOf('\0') >= 0;
        for (String part : name.split("/")) {
            bad |= part.equals("..") || part.equals(".");
        }
        if (bad) {
            throw new KerasFileException(file, name, "the entry's name is not a plain relative path (path traversal "
                    + "or an absolute path), so the archive is refused");
        }
    }

    private static byte[] bytes(ZipFile zip, ZipEntry e, Path file, long limit) throws IOException {
        long declared = e.getSize();
        if (declared > limit) {
            throw new KerasFileException(file, e.getName(), "declares " + declared + " bytes, more than the limit of "
                    + limit);
        }
        long compressed = e.getCompressedSize();
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 0), 1 << 20));
        byte[] buf = new byte[1 << 16];
        long total = 0;
        try (InputStream in = zip.getInputStream(e)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
                if (total > limit) {
                    throw new KerasFileException(file, e.getName(), "holds more than the limit of " + limit
                            + " bytes");
                }
                if (e.getMethod() == ZipEntry.DEFLATED && compressed > 0 && total > (1 << 20)
                        && total > compressed * MAX_RATIO) {
                    throw new KerasFileException(file, e.getName(), "expands more than " + MAX_RATIO + " times its "
                            + "compressed size (a zip bomb?)");
                }
                out.write(buf, 0, n);
            }
        } catch (ZipException ze) {
            throw new KerasFileException(file, e.getName(), "damaged: " + ze.getMessage(), ze);
        }
        if (declared >= 0 && total != declared) {
            throw new KerasFileException(file, e.getName(), "holds " + total + " bytes but declares " + declared);
        }
        byte[] bytes = out.toByteArray();
        // ZipFile checks no CRC of a stored entry (Keras stores them all), so every entry's is checked here.
        CRC32 crc = new CRC32();
        crc.update(bytes);
        if (e.getCrc() == -1 || crc.getValue() != e.getCrc()) {
            throw new KerasFileException(file, e.getName(), "damaged: its CRC-32 is " + Long.toHexString(
                    crc.getValue()) + " but the archive records " + Long.toHexString(e.getCrc()));
        }
        return bytes;
    }
}

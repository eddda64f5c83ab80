package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The hand-written JSON pieces of the trace: strings and microsecond times. */
class ChromeTraceTest {
    @Test
    void quotedStringsParseBackUnchanged() throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String s : new String[] {"", "plain", "dense_1/kernel", "a \"quoted\" \\ path\\", "tab\tnew\nline\r",
                                      "\u0000\u0001\u001f control", "unicode µs \u2028 é 漢"}) {
            assertEquals(s, json.readTree(ChromeTrace.quote(s)).asText(), s);
        }
    }

    @Test
    void microsecondsAreExactDecimals() {
        assertEquals("0.000", ChromeTrace.micros(0));
        assertEquals("0.007", ChromeTrace.micros(7));
        assertEquals("1.234", ChromeTrace.micros(1234));
        assertEquals("1234567.891", ChromeTrace.micros(1_234_567_891L));
        assertEquals("-0.050", ChromeTrace.micros(-50));
    }
}

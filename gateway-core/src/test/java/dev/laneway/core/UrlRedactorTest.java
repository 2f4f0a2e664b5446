package dev.laneway.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlRedactorTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://user:sk-SECRET@host.example/v1|https://***@host.example/v1",
            "https://sk-SECRET@host.example:8443|https://***@host.example:8443",
            "http://u:p@127.0.0.1:9/x@y|http://***@127.0.0.1:9/x@y",
            "https://host.example/v1?key=sk-SECRET|https://host.example/v1?key=***",
            "https://host.example/v1?model=m&api_key=sk-SECRET&x=1|https://host.example/v1?model=m&api_key=***&x=1",
            "https://host.example/?access_token=SECRET#frag|https://host.example/?access_token=***#frag",
            "https://host.example/#token=SECRET|https://host.example/#token=***",
            "https://host.example/?Password=SECRET;sig=SECRET2|https://host.example/?Password=***;sig=***",
            // not valid URLs: the password holds characters that stop parsing, or there is no scheme
            "https://user:pa/ss@host.example|https://***@host.example",
            "https://user:p?w@host.example|https://***@host.example",
            "https://us er:pw@host|https://***@host",
            "user:sk-SECRET@host.example|***@host.example",
    })
    void credentialsAreMasked(String url, String shown) {
        assertEquals(shown, UrlRedactor.redact(url));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://api.openai.com/v1",
            "https://discord.com/api/v10",
            "wss://gateway.discord.gg",
            "https://host.example/v1?model=m&stream=true",
            "https://discord.com/api/users/@me",
            "someone@example.com",
            "not a url: see me@example.com",
    })
    void textWithoutCredentials_isUnchanged(String text) {
        assertEquals(text, UrlRedactor.redact(text));
    }

    @Property
    void noPasswordSurvives(@ForAll @AlphaChars @Chars({'-', '_', '.', '~', '/', '?', '#', ':'}) @StringLength(min = 6, max = 80) String password,
                            @ForAll @CharRange(from = 'a', to = 'z') @StringLength(min = 1, max = 10) String user) {
        String secret = "S3CR3T" + password;
        String shown = UrlRedactor.redact("https://" + user + ":" + secret + "@host.example/v1");
        assertFalse(shown.contains(secret), shown);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"https://u:SECRET@h/|https://***@h/", "https://h/?token=SECRET|https://h/?token=***"})
    void uris_areMaskedLikeTheirText(String url, String shown) {
        assertEquals(shown, UrlRedactor.redact(URI.create(url)));
        assertNull(UrlRedactor.redact((URI) null));
    }
}

/*
 * openpace-ta-check: OpenPACE (Debian's libeac) as the other side of our Terminal Authentication
 * v1, for EmrtdIntegrationTests' TerminalAuthenticationOpenPACETests. It calls only OpenPACE's
 * public API; the test compiles it with `gcc ... -leac -lcrypto`.
 *
 *   openpace-ta-check verify CVCA ID_PICC R_PICC COMP_PK_PCD SIGNATURE CERTIFICATE...
 *       The chip's side. CVCA (a file: the whole 7F21 certificate) is the trust anchor
 *       (EAC_CTX_init_ta); each CERTIFICATE (a file: what PSO:Verify Certificate carried, the
 *       body and signature without the 7F21 wrapper) is imported in order by
 *       TA_STEP2_import_certificate, which checks CAR = CHR of the previous one and the signature;
 *       R_PICC is the challenge (TA_STEP4_set_nonce); TA_STEP6_verify checks SIGNATURE over
 *       ID_PICC || R_PICC || COMP_PK_PCD with the last certificate's key.
 *       Prints "OK", "FAIL certificate N" or "FAIL signature".
 *   openpace-ta-check sign KEY CERTIFICATE ID_PICC R_PICC COMP_PK_PCD
 *       The terminal's side, as OpenPACE's terminals set it up: EAC_CTX_init_ta with KEY (a
 *       file, PKCS#8 DER) and the terminal's CERTIFICATE (a file, as PSO:Verify Certificate
 *       carried it; its key's curve comes from KEY), which gives the signature algorithm;
 *       prints TA_STEP5_sign's signature over ID_PICC || R_PICC || COMP_PK_PCD in hex.
 *
 * ID_PICC, R_PICC, COMP_PK_PCD and SIGNATURE are hex. OpenPACE has no TA version switch: its
 * TA_CTX.version is documented as unused, and the signed data is the same for TA v1 and v2 (the
 * caller gives ID_PICC: after BAC the document number and check digit). Certificates' dates are
 * not checked (TA_disable_checks): OpenPACE compares them with the system clock, a chip with its
 * own current date, which the simulator checks.
 *
 * Exit status: 0 OK or signed, 1 a certificate or the signature refused, 2 usage or any error.
 */
#include <eac/eac.h>
#include <eac/ta.h>
#include <openssl/buffer.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every input here is a certificate, a key or a signature: none is near 8 KiB. */
#define INPUT_CAP 8192

static void usage(void)
{
    fputs("usage: openpace-ta-check verify CVCA ID_PICC R_PICC COMP_PK_PCD SIGNATURE CERTIFICATE...\n"
          "       openpace-ta-check sign KEY CERTIFICATE ID_PICC R_PICC COMP_PK_PCD\n",
          stderr);
}

/* A BUF_MEM holding `length` bytes from `bytes`, or NULL. */
static BUF_MEM *buffer_with(const unsigned char *bytes, size_t length)
{
    BUF_MEM *buffer = BUF_MEM_new();
    if (!buffer)
        return NULL;
    if (length > 0 && BUF_MEM_grow(buffer, length) != length) {
        BUF_MEM_free(buffer);
        return NULL;
    }
    if (length > 0)
        memcpy(buffer->data, bytes, length);
    buffer->length = length;
    return buffer;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The bytes of the hex string `text`, or NULL when it is not hex or longer than the cap. */
static BUF_MEM *from_hex(const char *text)
{
    size_t digits = strlen(text);
    if (digits % 2 != 0 || digits / 2 > INPUT_CAP)
        return NULL;
    unsigned char bytes[INPUT_CAP];
    for (size_t i = 0; i < digits / 2; i++) {
        int high = hex_digit(text[2 * i]), low = hex_digit(text[2 * i + 1]);
        if (high < 0 || low < 0)
            return NULL;
        bytes[i] = (unsigned char)(high << 4 | low);
    }
    return buffer_with(bytes, digits / 2);
}

/* The file at `path`, read to the cap; NULL when it cannot be read, is empty or is larger. */
static BUF_MEM *read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    unsigned char bytes[INPUT_CAP + 1];
    size_t length = fread(bytes, 1, sizeof bytes, file);
    fclose(file);
    BUF_MEM *contents = length == 0 || length > INPUT_CAP ? NULL : buffer_with(bytes, length);
    OPENSSL_cleanse(bytes, sizeof bytes); /* it may have been a private key */
    return contents;
}

/* 7F21 around `content` (PSO:Verify Certificate's data), as TA_STEP2_import_certificate wants it. */
static BUF_MEM *wrapped_certificate(const BUF_MEM *content)
{
    unsigned char bytes[INPUT_CAP + 8];
    size_t header = 0;
    bytes[header++] = 0x7F;
    bytes[header++] = 0x21;
    if (content->length < 0x80) {
        bytes[header++] = (unsigned char)content->length;
    } else if (content->length <= 0xFF) {
        bytes[header++] = 0x81;
        bytes[header++] = (unsigned char)content->length;
    } else {
        bytes[header++] = 0x82;
        bytes[header++] = (unsigned char)(content->length >> 8);
        bytes[header++] = (unsigned char)(content->length & 0xFF);
    }
    memcpy(bytes + header, content->data, content->length);
    return buffer_with(bytes, header + content->length);
}

/* A TA context trusting the CVCA in `cvca_path`; NULL on error. */
static EAC_CTX *context_trusting(const char *cvca_path)
{
    BUF_MEM *cvca = read_file(cvca_path);
    EAC_CTX *ctx = EAC_CTX_new();
    int ok = cvca && ctx
             && EAC_CTX_init_ta(ctx, NULL, 0, (const unsigned char *)cvca->data, cvca->length);
    BUF_MEM_free(cvca);
    if (!ok) {
        EAC_CTX_clear_free(ctx);
        return NULL;
    }
    TA_disable_checks(ctx);
    return ctx;
}

/* Imports the certificates in `paths` in order; the 1-based position of the first refused, else 0. */
static int import_chain(EAC_CTX *ctx, char **paths, int count)
{
    for (int i = 0; i < count; i++) {
        BUF_MEM *content = read_file(paths[i]);
        BUF_MEM *certificate = content ? wrapped_certificate(content) : NULL;
        int ok = certificate
                 && TA_STEP2_import_certificate(ctx, (const unsigned char *)certificate->data,
                                                certificate->length);
        BUF_MEM_free(content);
        BUF_MEM_free(certificate);
        if (!ok)
            return i + 1;
    }
    return 0;
}

static int verify(int argc, char **argv)
{
    if (argc < 7) {
        usage();
        return 2;
    }
    BUF_MEM *id_picc = from_hex(argv[2]), *nonce = from_hex(argv[3]), *comp = from_hex(argv[4]),
            *signature = from_hex(argv[5]);
    EAC_CTX *ctx = context_trusting(argv[1]);
    int status = 2;
    if (!id_picc || !nonce || !comp || !signature || !ctx) {
        fputs("ERROR: unreadable input or the CVCA refused as trust anchor\n", stderr);
        goto done;
    }
    int refused = import_chain(ctx, argv + 6, argc - 6);
    if (refused) {
        printf("FAIL certificate %d\n", refused);
        status = 1;
        goto done;
    }
    if (!TA_STEP4_set_nonce(ctx, nonce)) {
        fputs("ERROR: TA_STEP4_set_nonce\n", stderr);
        goto done;
    }
    switch (TA_STEP6_verify(ctx, comp, id_picc, NULL, signature)) {
    case 1:
        puts("OK");
        status = 0;
        break;
    case 0:
        puts("FAIL signature");
        status = 1;
        break;
    default:
        fputs("ERROR: TA_STEP6_verify\n", stderr);
    }
done:
    BUF_MEM_free(id_picc);
    BUF_MEM_free(nonce);
    BUF_MEM_free(comp);
    BUF_MEM_free(signature);
    EAC_CTX_clear_free(ctx);
    return status;
}

static int sign(int argc, char **argv)
{
    if (argc != 6) {
        usage();
        return 2;
    }
    BUF_MEM *key = read_file(argv[1]), *content = read_file(argv[2]), *id_picc = from_hex(argv[3]),
            *nonce = from_hex(argv[4]), *comp = from_hex(argv[5]), *signature = NULL;
    BUF_MEM *certificate = content ? wrapped_certificate(content) : NULL;
    EAC_CTX *ctx = EAC_CTX_new();
    int status = 2;
    if (!key || !certificate || !id_picc || !nonce || !comp || !ctx
        || !EAC_CTX_init_ta(ctx, (const unsigned char *)key->data, key->length,
                            (const unsigned char *)certificate->data, certificate->length)) {
        fputs("ERROR: unreadable input, or the key or the certificate refused\n", stderr);
        goto done;
    }
    if (!TA_STEP4_set_nonce(ctx, nonce) || !(signature = TA_STEP5_sign(ctx, comp, id_picc, NULL))) {
        fputs("ERROR: TA_STEP5_sign\n", stderr);
        goto done;
    }
    for (size_t i = 0; i < signature->length; i++)
        printf("%02X", (unsigned char)signature->data[i]);
    putchar('\n');
    status = 0;
done:
    if (key)
        OPENSSL_cleanse(key->data, key->length);
    BUF_MEM_free(key);
    BUF_MEM_free(content);
    BUF_MEM_free(certificate);
    BUF_MEM_free(id_picc);
    BUF_MEM_free(nonce);
    BUF_MEM_free(comp);
    BUF_MEM_free(signature);
    EAC_CTX_clear_free(ctx);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    EAC_init();
    int status = 2;
    if (strcmp(argv[1], "verify") == 0)
        status = verify(argc - 1, argv + 1);
    else if (strcmp(argv[1], "sign") == 0)
        status = sign(argc - 1, argv + 1);
    else
        usage();
    EAC_cleanup();
    return status;
}

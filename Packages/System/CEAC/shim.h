// OpenPACE (Debian's libeac-dev, `eac/pace.h`) for emrtd-bench's `pace` suite alone: the reference
// a PACE session of ours is measured against. Nothing else links it.
#include <eac/eac.h>
#include <eac/pace.h>

// One complete PACE session, both sides in memory, as OpenPACE's own tests run it: a terminal and
// a card context set up from the same EF.CardAccess, the card's encrypted nonce (STEP1/2), the
// mapping (STEP3A: Generic Mapping exchanges keys; Integrated Mapping sends the terminal's nonce,
// which both sides map with), the key agreement (3B), the session keys (3C) and both
// authentication tokens computed and verified (3D). Returns 1 when both tokens verified.
static inline int ceac_pace_session(
    const unsigned char *card_access, size_t card_access_length, const char *password, size_t password_length,
    int integrated_mapping) {
    EAC_CTX *terminal = EAC_CTX_new(), *card = EAC_CTX_new();
    PACE_SEC *secret = PACE_SEC_new(password, password_length, PACE_CAN);
    BUF_MEM *nonce = NULL, *terminal_mapping = NULL, *card_mapping = NULL, *terminal_key = NULL, *card_key = NULL,
            *terminal_token = NULL, *card_token = NULL;
    // OpenPACE refuses the Integrated Mapping under TR-03110 2.02 (its default), which dropped it;
    // 2.01 still has it, as ICAO 9303-11 does.
    if (integrated_mapping && terminal != NULL && card != NULL) {
        terminal->tr_version = EAC_TR_VERSION_2_01;
        card->tr_version = EAC_TR_VERSION_2_01;
    }
    int ok = terminal != NULL && card != NULL && secret != NULL
        && EAC_CTX_init_ef_cardaccess(card_access, card_access_length, terminal) == 1
        && EAC_CTX_init_ef_cardaccess(card_access, card_access_length, card) == 1
        && (nonce = PACE_STEP1_enc_nonce(card, secret)) != NULL
        && PACE_STEP2_dec_nonce(terminal, secret, nonce) == 1
        && (terminal_mapping = PACE_STEP3A_generate_mapping_data(terminal)) != NULL
        && (integrated_mapping || (card_mapping = PACE_STEP3A_generate_mapping_data(card)) != NULL)
        && PACE_STEP3A_map_generator(terminal, integrated_mapping ? terminal_mapping : card_mapping) == 1
        && PACE_STEP3A_map_generator(card, terminal_mapping) == 1
        && (terminal_key = PACE_STEP3B_generate_ephemeral_key(terminal)) != NULL
        && (card_key = PACE_STEP3B_generate_ephemeral_key(card)) != NULL
        && PACE_STEP3B_compute_shared_secret(terminal, card_key) == 1
        && PACE_STEP3B_compute_shared_secret(card, terminal_key) == 1
        && PACE_STEP3C_derive_keys(terminal) == 1 && PACE_STEP3C_derive_keys(card) == 1
        && (terminal_token = PACE_STEP3D_compute_authentication_token(terminal, card_key)) != NULL
        && (card_token = PACE_STEP3D_compute_authentication_token(card, terminal_key)) != NULL
        && PACE_STEP3D_verify_authentication_token(terminal, card_token) == 1
        && PACE_STEP3D_verify_authentication_token(card, terminal_token) == 1;
    BUF_MEM *buffers[] = {nonce, terminal_mapping, card_mapping, terminal_key, card_key, terminal_token, card_token};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++) {
        if (buffers[i] != NULL) BUF_MEM_free(buffers[i]);
    }
    if (secret != NULL) PACE_SEC_clear_free(secret);
    if (terminal != NULL) EAC_CTX_clear_free(terminal);
    if (card != NULL) EAC_CTX_clear_free(card);
    return ok;
}

// OpenPACE (Debian's libeac-dev, `eac/pace.h`) for emrtd-bench's `pace` suite alone: the reference
// a PACE session of ours is measured against. Nothing else links it.
#include <eac/eac.h>
#include <eac/pace.h>

// A terminal's or a card's context from EF.CardAccess. OpenPACE refuses the Integrated Mapping
// under TR-03110 2.02 (its default), which dropped it; 2.01 still has it, as ICAO 9303-11 does.
// For DH, reading EF.CardAccess runs DH_check on the group (primality of p and q).
static inline EAC_CTX *ceac_pace_context(const unsigned char *card_access, size_t card_access_length,
                                         int integrated_mapping) {
    EAC_CTX *context = EAC_CTX_new();
    if (context == NULL) return NULL;
    if (integrated_mapping) context->tr_version = EAC_TR_VERSION_2_01;
    if (EAC_CTX_init_ef_cardaccess(card_access, card_access_length, context) != 1) {
        EAC_CTX_clear_free(context);
        return NULL;
    }
    return context;
}

static inline void ceac_pace_context_free(EAC_CTX *context) {
    if (context != NULL) EAC_CTX_clear_free(context);
}

static inline PACE_SEC *ceac_pace_can(const char *can, size_t length) { return PACE_SEC_new(can, length, PACE_CAN); }
static inline void ceac_pace_secret_free(PACE_SEC *secret) {
    if (secret != NULL) PACE_SEC_clear_free(secret);
}

// One PACE run between two contexts, as OpenPACE's own example runs it: the card's encrypted nonce
// (STEP1/2), the mapping (STEP3A: Generic Mapping exchanges keys; Integrated Mapping sends the
// terminal's nonce, which both sides map with), the key agreement (3B), the session keys (3C) and
// both authentication tokens computed and verified (3D). Each run overwrites the contexts' PACE
// state, so contexts may be reused. Returns 1 when both tokens verified.
static inline int ceac_pace_steps(EAC_CTX *terminal, EAC_CTX *card, const PACE_SEC *secret, int integrated_mapping) {
    BUF_MEM *nonce = NULL, *terminal_mapping = NULL, *card_mapping = NULL, *terminal_key = NULL, *card_key = NULL,
            *terminal_token = NULL, *card_token = NULL;
    int ok = terminal != NULL && card != NULL && secret != NULL
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
    return ok;
}

// A whole session with fresh contexts from EF.CardAccess on both sides.
static inline int ceac_pace_session(const unsigned char *card_access, size_t card_access_length,
                                    const PACE_SEC *secret, int integrated_mapping) {
    EAC_CTX *terminal = ceac_pace_context(card_access, card_access_length, integrated_mapping);
    EAC_CTX *card = ceac_pace_context(card_access, card_access_length, integrated_mapping);
    int ok = ceac_pace_steps(terminal, card, secret, integrated_mapping);
    ceac_pace_context_free(terminal);
    ceac_pace_context_free(card);
    return ok;
}

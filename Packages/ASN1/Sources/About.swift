// BER-TLV and DER as chips and certificates use them: a node tree keeping the exact encoded bytes, a writer, the universal types and a table of named OIDs.

// Symmetric ciphers, MACs, hashes, the ICAO 9303-11 KDF and RSA public operations, on OpenSSL libcrypto.

// ICAO 9303-11 secure messaging (3DES and AES): wrapping commands, verifying and unwrapping responses, the send sequence counter.

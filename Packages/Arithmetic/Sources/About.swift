// Big integers, prime fields, elliptic curves and DH groups on GMP: the public-key math of PACE, Chip Authentication, Active Authentication and ECDSA on explicit domain parameters.

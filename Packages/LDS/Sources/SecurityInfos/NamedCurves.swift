/// The standard prime curves travel documents use, as data: a public key with explicit domain
/// parameters is named when its (p, a, b, Gx, n) equal one of these. Values are hex without
/// leading zeros, taken from SEC 2 and RFC 5639 (checked against `openssl ecparam` by the tests).
struct NamedCurve: Sendable {
    let name: String
    let oid: String
    let p: String
    let a: String
    let b: String
    let gx: String
    let n: String

    /// Bits of the field prime.
    var bitLength: Int {
        guard let first = p.first?.hexDigitValue else { return 0 }
        return (p.count - 1) * 4 + (first == 0 ? 0 : Int.bitWidth - first.leadingZeroBitCount)
    }

    static let all: [NamedCurve] = [
        NamedCurve(
            name: "secp192r1", oid: "1.2.840.10045.3.1.1",
            p: "fffffffffffffffffffffffffffffffeffffffffffffffff",
            a: "fffffffffffffffffffffffffffffffefffffffffffffffc",
            b: "64210519e59c80e70fa7e9ab72243049feb8deecc146b9b1",
            gx: "188da80eb03090f67cbf20eb43a18800f4ff0afd82ff1012",
            n: "ffffffffffffffffffffffff99def836146bc9b1b4d22831"),
        NamedCurve(
            name: "secp224r1", oid: "1.3.132.0.33",
            p: "ffffffffffffffffffffffffffffffff000000000000000000000001",
            a: "fffffffffffffffffffffffffffffffefffffffffffffffffffffffe",
            b: "b4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4",
            gx: "b70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21",
            n: "ffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d"),
        NamedCurve(
            name: "secp256r1", oid: "1.2.840.10045.3.1.7",
            p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
            a: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
            b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
            gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
        NamedCurve(
            name: "secp384r1", oid: "1.3.132.0.34",
            p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
            a: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffc",
            b: "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
            gx: "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
            n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"),
        NamedCurve(
            name: "secp521r1", oid: "1.3.132.0.35",
            p:
                "1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            a:
                "1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc",
            b:
                "51953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
            gx:
                "c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
            n:
                "1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409"
        ),
        NamedCurve(
            name: "brainpoolP192r1", oid: "1.3.36.3.3.2.8.1.1.3",
            p: "c302f41d932a36cda7a3463093d18db78fce476de1a86297",
            a: "6a91174076b1e0e19c39c031fe8685c1cae040e5c69a28ef",
            b: "469a28ef7c28cca3dc721d044f4496bcca7ef4146fbf25c9",
            gx: "c0a0647eaab6a48753b033c56cb0f0900a2f5c4853375fd6",
            n: "c302f41d932a36cda7a3462f9e9e916b5be8f1029ac4acc1"),
        NamedCurve(
            name: "brainpoolP224r1", oid: "1.3.36.3.3.2.8.1.1.5",
            p: "d7c134aa264366862a18302575d1d787b09f075797da89f57ec8c0ff",
            a: "68a5e62ca9ce6c1c299803a6c1530b514e182ad8b0042a59cad29f43",
            b: "2580f63ccfe44138870713b1a92369e33e2135d266dbb372386c400b",
            gx: "d9029ad2c7e5cf4340823b2a87dc68c9e4ce3174c1e6efdee12c07d",
            n: "d7c134aa264366862a18302575d0fb98d116bc4b6ddebca3a5a7939f"),
        NamedCurve(
            name: "brainpoolP256r1", oid: "1.3.36.3.3.2.8.1.1.7",
            p: "a9fb57dba1eea9bc3e660a909d838d726e3bf623d52620282013481d1f6e5377",
            a: "7d5a0975fc2c3057eef67530417affe7fb8055c126dc5c6ce94a4b44f330b5d9",
            b: "26dc5c6ce94a4b44f330b5d9bbd77cbf958416295cf7e1ce6bccdc18ff8c07b6",
            gx: "8bd2aeb9cb7e57cb2c4b482ffc81b7afb9de27e1e3bd23c23a4453bd9ace3262",
            n: "a9fb57dba1eea9bc3e660a909d838d718c397aa3b561a6f7901e0e82974856a7"),
        NamedCurve(
            name: "brainpoolP320r1", oid: "1.3.36.3.3.2.8.1.1.9",
            p: "d35e472036bc4fb7e13c785ed201e065f98fcfa6f6f40def4f92b9ec7893ec28fcd412b1f1b32e27",
            a: "3ee30b568fbab0f883ccebd46d3f3bb8a2a73513f5eb79da66190eb085ffa9f492f375a97d860eb4",
            b: "520883949dfdbc42d3ad198640688a6fe13f41349554b49acc31dccd884539816f5eb4ac8fb1f1a6",
            gx: "43bd7e9afb53d8b85289bcc48ee5bfe6f20137d10a087eb6e7871e2a10a599c710af8d0d39e20611",
            n: "d35e472036bc4fb7e13c785ed201e065f98fcfa5b68f12a32d482ec7ee8658e98691555b44c59311"),
        NamedCurve(
            name: "brainpoolP384r1", oid: "1.3.36.3.3.2.8.1.1.11",
            p: "8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b412b1da197fb71123acd3a729901d1a71874700133107ec53",
            a: "7bc382c63d8c150c3c72080ace05afa0c2bea28e4fb22787139165efba91f90f8aa5814a503ad4eb04a8c7dd22ce2826",
            b: "4a8c7dd22ce28268b39b55416f0447c2fb77de107dcd2a62e880ea53eeb62d57cb4390295dbc9943ab78696fa504c11",
            gx: "1d1c64f068cf45ffa2a63a81b7c13f6b8847a3e77ef14fe3db7fcafe0cbd10e8e826e03436d646aaef87b2e247d4af1e",
            n: "8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b31f166e6cac0425a7cf3ab6af6b7fc3103b883202e9046565"),
        NamedCurve(
            name: "brainpoolP512r1", oid: "1.3.36.3.3.2.8.1.1.13",
            p:
                "aadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca703308717d4d9b009bc66842aecda12ae6a380e62881ff2f2d82c68528aa6056583a48f3",
            a:
                "7830a3318b603b89e2327145ac234cc594cbdd8d3df91610a83441caea9863bc2ded5d5aa8253aa10a2ef1c98b9ac8b57f1117a72bf2c7b9e7c1ac4d77fc94ca",
            b:
                "3df91610a83441caea9863bc2ded5d5aa8253aa10a2ef1c98b9ac8b57f1117a72bf2c7b9e7c1ac4d77fc94cadc083e67984050b75ebae5dd2809bd638016f723",
            gx:
                "81aee4bdd82ed9645a21322e9c4c6a9385ed9f70b5d916c1b43b62eef4d0098eff3b1f78e2d0d48d50d1687b93b97d5f7c6d5047406a5e688b352209bcb9f822",
            n:
                "aadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca70330870553e5c414ca92619418661197fac10471db1d381085ddaddb58796829ca90069"
        ),
    ]
}

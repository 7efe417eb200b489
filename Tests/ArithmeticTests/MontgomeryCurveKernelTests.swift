import CFieldKernels
import OpenSSLReference
import Testing

@testable import Arithmetic

/// The C kernel of the generic back end (`MontgomeryCurve.c`: Montgomery fields of 3–8 limbs and the
/// public scalar multiplication of a = -3 curves over them), each of its two builds: MULX/ADX (when
/// this CPU has BMI2 and ADX) and portable. Serialized: the kernel choice is process-wide.
@Suite(.serialized) struct MontgomeryCurveKernelTests {
    /// Products and squares against GMP's `mpn` Montgomery field on the same limbs: random moduli (a
    /// full top limb, headroom, 2^(64n) - 1), the standard curves' primes of the size, and 0, 1, p - 1,
    /// p - 2 and random elements.
    @Test(arguments: [false, true])
    func fieldMatchesGMP(adx: Bool) throws {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        for limbCount in 3...8 {
            func odd(_ value: BigInt) -> BigInt { value.isOdd ? value : value + BigInt(1) }
            var moduli = [
                odd(BigInt(bytes: openSSLRandomBytes(8 * limbCount))),
                odd(BigInt(bytes: openSSLRandomBytes(8 * limbCount - 3))),
                (BigInt(1) << (64 * limbCount)) - BigInt(1),
            ]
            moduli += standardCurveIDs.compactMap { standardCurve($0)?.p }.filter {
                ($0.bitWidth + 63) / 64 == limbCount
            }
            for modulus in moduli where modulus.bitWidth > 64 * (limbCount - 1) {
                let gmp = MontgomeryField(modulus: modulus, swiftKernels: false)
                let workspace = Workspace(limbCount: limbCount, temporaries: 4)
                let s = workspace.scratch
                let (a, b, expected, r) = (
                    workspace.temporary(0), workspace.temporary(1), workspace.temporary(2), workspace.temporary(3)
                )
                var values = [BigInt(0), BigInt(1), modulus - BigInt(1), modulus - BigInt(2)]
                values += (0..<24).map { _ in BigInt(bytes: openSSLRandomBytes(8 * limbCount)).modulo(modulus) }
                for (index, x) in values.enumerated() {
                    let y = values[(index * 7 + 3) % values.count]
                    MontgomeryField.store(x, into: a, limbCount: limbCount)
                    MontgomeryField.store(y, into: b, limbCount: limbCount)
                    gmp.multiply(expected, a, b, scratch: s)
                    emrtd_montgomery_mul(Int32(limbCount), r, a, b, gmp.p, gmp.negativeInverse)
                    #expect(
                        Array(UnsafeBufferPointer(start: r, count: limbCount))
                            == Array(UnsafeBufferPointer(start: expected, count: limbCount)),
                        "\(x) · \(y) mod \(modulus)")
                    gmp.square(expected, a, scratch: s)
                    emrtd_montgomery_sqr(Int32(limbCount), r, a, gmp.p, gmp.negativeInverse)
                    #expect(
                        Array(UnsafeBufferPointer(start: r, count: limbCount))
                            == Array(UnsafeBufferPointer(start: expected, count: limbCount)), "\(x)² mod \(modulus)")
                }
            }
        }
    }

    /// Every standard curve without a dedicated back end (Brainpool's twins, P-192, P-384) runs its
    /// public loop in C; P-521 (nine limbs) does not.
    @Test func curvesServedByTheKernel() throws {
        for id in standardCurveIDs {
            let curve = try #require(standardCurve(id))
            if curve.context.dedicated == nil {
                #expect(curve.context.multiplier.publicTermsInC, "\(curve.name ?? "")")
            }
        }
        #expect(try #require(standardCurve(18)).context.multiplier.publicTermsInC == false)
    }

    /// Wycheproof's ECDH vectors for Brainpool (../shared/vectors/wycheproof, copied here): the shared x
    /// through the public path (the C loop) and the secret one, with each kernel. Edge cases: doublings
    /// in the chain (EdgeCaseDoubling) and scalars with long addition chains (AdditionChain).
    @Test(arguments: [false, true])
    func wycheproofBrainpoolECDH(adx: Bool) throws {
        FieldKernelChoice.select(adx: adx)
        defer { FieldKernelChoice.select(adx: true) }
        for (id, label, privateKey, publicKey, shared) in Self.wycheproof {
            let curve = try #require(standardCurve(id))
            let point = try curve.decodePoint(try #require(hexBytes(publicKey)))
            let k = BigInt(bytes: try #require(hexBytes(privateKey)))
            let expected = BigInt(bytes: try #require(hexBytes(shared)))
            guard case .affine(let x, _) = curve.multiply(point, by: k) else {
                Issue.record("\(id) \(label): infinity")
                continue
            }
            #expect(x == expected, "\(id) \(label)")
            guard case .affine(let secretX, _) = try curve.multiplySecret(point, by: k) else {
                Issue.record("\(id) \(label): infinity (secret)")
                continue
            }
            #expect(secretX == expected, "\(id) \(label) (secret)")
        }
    }

    /// The point at infinity out of the C loop: n·P, 0·P, and k·P + (n - k)·P in one combination (a
    /// digit adding -Q to Q, or the sum cancelling), against the Swift formulas on the same terms.
    @Test(arguments: [13, 14, 16, 17])
    func infinityAndCancellation(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        let point = try curve.decodePoint(try #require(reference.multiply(nil, by: BigInt(0xC0FFEE))))
        #expect(curve.multiply(point, by: curve.order) == .infinity)
        #expect(curve.multiply(point, by: BigInt(0)) == .infinity)
        for k in [BigInt(1), BigInt(2), BigInt(3), curve.order - BigInt(1), try BigInt.random(below: curve.order)] {
            #expect(curve.linearCombination([(k, point), (curve.order - k, point)]) == .infinity, "k = \(k)")
            let doubled = curve.linearCombination([(k, point), (k, point)])
            let expected = try #require(reference.multiply(try curve.encode(point), by: (k + k).modulo(curve.order)))
            #expect(try curve.encode(doubled) == expected, "k = \(k)")
        }
    }

    private func hexBytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// (parameter ID, Wycheproof's flag, private key, public point, shared x), valid vectors.
    static let wycheproof: [(Int, String, String, String, String)] = [
        (
            13, "Normal",
            "0113db979e07d9c8fdbea5b06a682c0d2ad67170ffcb65d7547d8c442d3ac237",
            "044cee5e1072b30d64f70bf01958e22c044a2127ddd744ce3060c15990ff0fe1148c6ee56559829a5a84dd5c8646ee0c43d0b7c50181f234ec09eba43bc86b169e",
            "3f00d9af7607fd32809ef7a4a30b396e3da9f465adf20597c9e2046f16a7b1be"
        ),
        (
            13, "EdgeCaseDoubling",
            "00a315ffcbdc5cfdc801b6651307040e3b214bb904f863f6039e0aae147ec2a833",
            "0479838c22d2b8dc9af2e6cf56f8826dc3dfe10fcb17b6aaaf551ee52bef12f8261e2ed3d453088c8552c6feecf898667bc1e15905002edec6b269feb7bea09d5b",
            "5ef8dcc080d09e279e999efc5e1254be40172e818330c6c29642949eb3077657"
        ),
        (
            13, "AdditionChain",
            "03",
            "04a4597cfee2797aaace662caa92a444592c9f626f04beca98a06b6dfcaf53f4b377d67b1c109154309bcf3d2f3928e58747806f08a8cf88436ac1b2110b83493b",
            "a3e1a44851d0dee744378c5e495f3081dff2a0fefccdd08fdc2331687d5c4a80"
        ),
        (
            14, "Normal",
            "12d06c51deda1595d8c43e7c146f898f7141c0836522931049afe61333ae2c03e350b61aeba540bf",
            "04b7fc5720d4b325c0805cc213c1b9ccbd9e4f380a121fbc00784c821bcd7f0d618b70d39fbdceae553d9de4f90683eb9f000463c7bd1d32db8cfad2b40862ccac05030e93fc6694c071e8e1427b305006",
            "94982d50b29faedaa7ed0988fd57b90303b032ce398ec70af6d194bcfd7f9008d14e09425502b7e7"
        ),
        (
            14, "EdgeCaseDoubling",
            "6ec319890c097559246101be7cf09f4dd89b6b3e58c1799f58bb183118809c1ad733b6e8a6329a17",
            "04c3c0a0cb3e5a3e6ac794a0d7326cd98c565c565536a68d3578b369a99848d7487548c648c7ce43a762b9c83b6aadea1e64e3f69df761f20c617454a40a57b750b0f6604aed468363805e541cde79ca8a",
            "ad83781e759ccc606da18ba87713f90e9120e66aa663c39394cd40f72567bef9b8e7a2475db7e116"
        ),
        (
            14, "AdditionChain",
            "03",
            "044e73d59ec474e679414d0922de22e06d0dad990ba4746c3d026bdea52e7bbeaac928d0ddaab29dfed230dde60fd57d4ef8e935b23cb7d4216b278b17a3f02d70454fa0e45da2054b91b0c4b663ab243d",
            "a3e86777a4263b4656733a65bf322d397199cda903588fc3754cb0e27901f5e29f115b511b94c831"
        ),
        (
            16, "Normal",
            "24ddf0fbb41c28365d302dd9d26ff9c32c76c85fa8b9138a3ec621d0caff6de8a724b45d6fe0d9180044242b9f41c84b",
            "0470ffb350173256eb437b140365842397ebaf3611b6389596c1f17c5ff5ce5201f24f6985b8fe0890dcae54b2603dfb4087242aaf7b2d95b3199bfa03e8fce54ef680b57109847274db3b3a65512b7f832248e70b1030e95db6429589775c3346",
            "22522760edc39280ff3277b121e17e7539165e7c677a65c8d0dc8159111f8e5d3df7035fe8ce33ac0a0e047ed0842a92"
        ),
        (
            16, "EdgeCaseDoubling",
            "4a7fa2b9890207fee6e4775fae86e344f00e0d774ce5238ff310ec062ddb8816b2caec0c4f8a18085a20925eeae4c2c1",
            "04567d7f88704ab86568bebb212fb1f53c8559de081799c39b211f6f087dd29dcebf76810abf1a54c9e9cf842a3505dc1b2ee697f36dd3312f3e9f86a6a2467991e8b44f2f9017b04a1da9f12ceb0c8ae083e1142044f69913bc4a7b9a9bb2e473",
            "1b6a256c0fab8d6e85c1c8af62d1604ca7fde2b4e301c004d336ea923356b67f1a935d0feceb48dc78141dc27f1122d1"
        ),
        (
            16, "AdditionChain",
            "03",
            "0409d897b6d1452a2f91c4c37fbb06d82f9ebf722298cafb135e582cded3e3210033e4cd07703c34acf36ba72b401c30bf03b161af6e11309a1122145c431996047a7e7808cf8314b6ec37c61a817d08c7d00c8c7b5d258f2674378c832f682edf",
            "1a136db83c88ec1a705db70c310e685164acf6890c5628fb4004520739a30a015557d3d0fa8652d26af3621d8cfac529"
        ),
        (
            17, "Normal",
            "6280eb95405fa8c0e9d970547301bbefb152c8c8114abc730c89bf6db3f7d949fcfd7ebb82fd2dbd43d28d47bf4ed95de97baed19f7d087cf303d2b0cd413767",
            "048a73a66605a5db252ef418ff2c43969bd4128187ce431c36a33d3ff3034cf8910fb0021ce849723621199d0d7ea4805f3cdab82f6c909257762da2a97e26305b078c1fd791fa957e975e30df5b876054758267129e4974a083372b0ce071180d05e1978bd90b8407c0a7ff7f6651bd3ffcf1a574dfe95a2e8af3866cbb385d21",
            "9690120edf3c583f627774ac2837f792e1049b3768199e3cc68c75cc16f73d4eca828f87880de91e2fbe0671b7066fcc814cb2e190832adae3a6dc7d9d9e71d3"
        ),
        (
            17, "EdgeCaseDoubling",
            "5d481691b74404f439dffd5c458c1113103f28493e6079ba6b84ecfa88ceab4b9c0df782bb728812794a0bef961efc601b5b5a08b199cb2c9e8b0ff544dd11af",
            "04323bb83b14b2efcba87dd60598a6afddc69b89f1820cc174faedaedd5fd1ddcf9679e37ad8aa0c71213ef2a7c5833a4b5091da99459dc6c1aa5aead7c64685741285e6b2a01af21b805372827e251492cf6a5ac652a067ce0fba820aeabeacfb0a8cd5c67093286528dcffe4a9fe4d76f4bc060859828bdb1b2c4cf7f2b5e925",
            "2f70b9391826c4a0dca8d42be8e050b5af9f63b4ba7d1a3dcfa2a769cd6ab2e7a9e9188393412485e90cc460aef635caf0918359d77c2101c98482a1e029fa2a"
        ),
        (
            17, "AdditionChain",
            "03",
            "042ee402777200a1c9e7eceb61feb070af49429f9240d7c0bab9b2f01c5ee145683df47cbe852ff6f99198f6fdfaef1925eb96bd25e03d6d70f709eb1922308acc99a3fbc1e982db7a7b3bbf7827ea70912ee677bb0ba70bfabec38d4b993af165c40727680fe79ad0fbb55d1e9568d978b11f77cc4e72aa7ca5c391034078b8bd",
            "47ed915ca64aac752724aa06b311d171dc14b9c55421ff61c6413b3fc7313ecda03c0addd0d6dbdacd5ea0619054614610d07cd78f9ed4d6df024c781af3efae"
        ),
    ]
}

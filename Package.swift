// swift-tools-version:6.0
// emrtd: an ICAO Doc 9303 reader. One library product per package, so that a
// team can depend on the MRZ parser or the CMS verifier alone. The layering
// rules (who may import whom) are the map in CONTRIBUTING.md; Tools/check-imports.py holds
// each library's dependencies here to its row there.
import PackageDescription

/// A library package under `Packages/<name>/Sources` with its test target
/// `Tests/<name>Tests`.
struct Library {
    let name: String
    let dependencies: [Target.Dependency]
    var testResources: [Resource]? = nil
    /// Extra dependencies of the test target (a reference implementation for differential tests).
    var testDependencies: [Target.Dependency] = []
}

let libraries: [Library] = [
    Library(name: "CodedErrors", dependencies: []),
    Library(name: "ASN1", dependencies: ["CodedErrors"]),
    Library(name: "Secrets", dependencies: ["CodedErrors"]),
    Library(name: "JSON", dependencies: []),
    Library(name: "Files", dependencies: ["CodedErrors"]),
    Library(name: "ICAO", dependencies: ["ASN1", "JSON", "Arithmetic", "Secrets"]),
    Library(name: "MRZ", dependencies: ["CodedErrors", "ASN1", "JSON", "Secrets"], testResources: [.copy("Fixtures")]),
    Library(
        name: "Arithmetic", dependencies: ["CodedErrors", "ASN1", "CGMP", "CFieldKernels", "Secrets"],
        testDependencies: ["OpenSSLReference"]),
    Library(name: "CryptoPrimitives", dependencies: ["CodedErrors", "COpenSSL", "ICAO", "Secrets"]),
    Library(name: "Transport", dependencies: ["ASN1"]),
    Library(name: "PCSC", dependencies: ["Transport", "CPCSCLite"]),
    Library(
        name: "SecureMessaging",
        dependencies: ["CodedErrors", "ASN1", "Transport", "CryptoPrimitives", "ICAO", "Secrets"]),
    Library(
        name: "LDS",
        dependencies: ["CodedErrors", "ASN1", "JSON", "ICAO", "MRZ", "COpenJPEG", "CLibDeflate", "CPNGDeflate"],
        testDependencies: ["CLibPNG"]),
    Library(
        name: "CVCertificates",
        dependencies: ["CodedErrors", "ASN1", "ICAO", "Arithmetic", "CryptoPrimitives", "Secrets"]),
    Library(
        name: "CMS", dependencies: ["CodedErrors", "ASN1", "JSON", "ICAO", "Arithmetic", "CryptoPrimitives", "Files"],
        testDependencies: ["ChipSimulator"]),
    Library(
        name: "Seals", dependencies: ["CodedErrors", "ASN1", "JSON", "MRZ", "CMS", "CryptoPrimitives", "CLibDeflate"],
        testDependencies: ["ChipSimulator", "CLibDeflate"]),
    Library(
        name: "AccessControl",
        dependencies: [
            "CodedErrors",
            "Transport", "SecureMessaging", "CryptoPrimitives", "ICAO", "MRZ", "LDS", "ASN1", "Arithmetic", "Secrets",
        ]),
    Library(
        name: "ChipAuthentication",
        dependencies: [
            "CodedErrors",
            "Transport", "SecureMessaging", "Arithmetic", "CryptoPrimitives", "ICAO", "LDS", "CMS", "ASN1", "Secrets",
            "CVCertificates",
        ], testDependencies: ["OpenSSLReference", "CVCertificates"]),
    Library(
        name: "Emrtd",
        dependencies: [
            "Transport", "SecureMessaging", "AccessControl", "ChipAuthentication", "ICAO", "MRZ", "LDS", "CMS", "JSON",
            "Secrets", "CVCertificates",
        ]),
    Library(
        name: "Output",
        dependencies: ["CodedErrors", "ASN1", "AccessControl", "CMS", "Emrtd", "Files", "ICAO", "LDS", "MRZ"],
        testDependencies: ["ChipSimulator"]),
    Library(
        name: "ChipSimulator",
        dependencies: [
            "CodedErrors",
            "Transport", "CryptoPrimitives", "Arithmetic", "ASN1", "ICAO", "LDS", "COpenSSL", "Secrets", "Files",
            "CVCertificates",
        ]),
    Library(name: "Connector", dependencies: ["CodedErrors", "Transport", "MRZ", "JSON", "Secrets", "CLibWebSockets"]),
    Library(
        name: "Validation",
        dependencies: [
            "CodedErrors",
            "Connector", "Emrtd", "Transport", "LDS", "JSON", "ASN1", "CryptoPrimitives", "Secrets", "Files",
        ],
        testDependencies: ["ChipSimulator", "Connector"]),
]

let systemLibraries = ["CGMP", "COpenSSL", "COpenJPEG", "CLibDeflate", "CLibPNG", "CEAC", "CLibWebSockets"]

let package = Package(
    name: "emrtd",
    products: libraries.map { .library(name: $0.name, targets: [$0.name]) } + [
        .executable(name: "emrtd", targets: ["emrtd"]),
        .executable(name: "emrtd-bench", targets: ["emrtd-bench"]),
        // libemrtd, the C ABI (include/emrtd.h): Tools/build-release.sh builds .build/release/libEmrtdC.so.
        .library(name: "EmrtdC", type: .dynamic, targets: ["EmrtdC"]),
    ],
    targets: systemLibraries.map {
        .systemLibrary(name: $0, path: "Packages/System/\($0)")
    }
        + [
            // pcsc-lite as a C target, not a system library: pkg-config's flags for it carry
            // -pthread, which SwiftPM refuses with a warning on every build (include/pcsclite.h).
            .target(
                name: "CPCSCLite", path: "Packages/System/CPCSCLite", linkerSettings: [.linkedLibrary("pcsclite")]),
            // Arithmetic's field kernels in C (P-256, P-224: MULX/ADCX/ADOX chosen by CPUID, or portable):
            // written here, part of Arithmetic, a target of its own only because SwiftPM compiles C apart.
            .target(name: "CFieldKernels", path: "Packages/Arithmetic/CFieldKernels"),
            // LDS's PNG writer in C (its own deflate coder for Up-filtered rows, libdeflate for the rest):
            // part of LDS, a target of its own only because SwiftPM compiles C apart.
            .target(
                name: "CPNGDeflate", path: "Packages/LDS/CPNGDeflate", linkerSettings: [.linkedLibrary("deflate")]),
            // include/emrtd.h as a module, so that EmrtdC's exports use the header's own structs.
            .systemLibrary(name: "CEmrtdABI", path: "Packages/EmrtdC/CEmrtdABI"),
            // The C ABI's exports; the library's SONAME is libemrtd.so.0 (its major version). In
            // release the Swift runtime and Foundation are linked in statically (SwiftPM's
            // --static-swift-stdlib covers executables only), and the version script
            // Packages/EmrtdC/emrtd.map exports the header's functions alone: every other symbol
            // stays inside the library. (Release only: in debug the test bundle links EmrtdC too.)
            .target(
                name: "EmrtdC",
                dependencies: [
                    "CEmrtdABI", "Emrtd", "CMS", "LDS", "MRZ", "JSON", "ASN1", "Transport", "Output",
                ],
                path: "Packages/EmrtdC/Sources",
                linkerSettings: [
                    .unsafeFlags(["-Xlinker", "-soname=libemrtd.so.0"]),
                    .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
                    .unsafeFlags(
                        ["-Xlinker", "--version-script=\(Context.packageDirectory)/Packages/EmrtdC/emrtd.map"],
                        .when(configuration: .release)),
                ]),
            .testTarget(
                name: "EmrtdCTests", dependencies: ["EmrtdC", "CEmrtdABI", "Emrtd", "TestSupport", "JSON"],
                path: "Tests/EmrtdCTests"),
        ]
        + libraries.map {
            .target(name: $0.name, dependencies: $0.dependencies, path: "Packages/\($0.name)/Sources")
        }
        + libraries.map {
            .testTarget(
                name: "\($0.name)Tests",
                dependencies: [.target(name: $0.name), "TestSupport"] + $0.testDependencies,
                path: "Tests/\($0.name)Tests",
                resources: $0.testResources
            )
        }
        + [
            // What the test targets share: ../shared, prerequisites, subprocesses, the PC/SC rig.
            .target(name: "TestSupport", dependencies: ["ASN1"], path: "Tests/TestSupport"),
            // OpenSSL as the independent reference of ArithmeticTests and of emrtd-bench's curves suite.
            .target(
                name: "OpenSSLReference", dependencies: ["Arithmetic", "COpenSSL"], path: "Tests/OpenSSLReference"),
            .testTarget(name: "EmrtdCLITests", dependencies: ["TestSupport", "JSON"], path: "Tests/EmrtdCLITests"),
            .testTarget(
                name: "PCSCIntegrationTests", dependencies: ["PCSC", "AccessControl", "TestSupport"],
                path: "Tests/PCSCIntegrationTests"),
            // The reference's Swift examples, compiled as written, over the simulator.
            .testTarget(
                name: "ReferenceAPITests",
                dependencies: ["Emrtd", "Transport", "ChipSimulator"],
                path: "Tests/ReferenceAPITests"),
            .testTarget(
                name: "EmrtdIntegrationTests",
                dependencies: [
                    "Emrtd", "ChipSimulator", "CMS", "LDS", "TestSupport", "AccessControl", "ChipAuthentication",
                    "CVCertificates", "SecureMessaging", "Transport", "MRZ", "ICAO", "Arithmetic",
                ],
                path: "Tests/EmrtdIntegrationTests"),
            .executableTarget(
                name: "emrtd",
                dependencies: [
                    "JSON", "MRZ", "LDS", "CMS", "Transport", "PCSC", "Emrtd", "ChipSimulator", "AccessControl",
                    "Validation", "Connector", "Output", "Files", "CVCertificates", "ASN1", "ICAO", "Secrets", "Seals",
                ],
                path: "Apps/emrtd",
                exclude: ["Station/README.md"]
            ),
            // The libFuzzer targets (Tools/fuzz.sh builds them with sanitizers; a plain build replays inputs).
            .executableTarget(
                name: "emrtd-fuzz",
                dependencies: [
                    "ASN1", "MRZ", "LDS", "CMS", "Transport", "SecureMessaging", "AccessControl", "ChipSimulator",
                    "ChipAuthentication", "ICAO", "Secrets", "Connector", "CVCertificates", "Seals",
                ],
                path: "Fuzz/Sources"
            ),
            .executableTarget(
                name: "emrtd-bench",
                dependencies: [
                    "Arithmetic", "CryptoPrimitives", "COpenSSL", "OpenSSLReference", "SecureMessaging", "Transport",
                    "ASN1", "CMS", "JSON", "LDS", "COpenJPEG", "ICAO", "AccessControl", "ChipSimulator", "MRZ", "CEAC",
                    "ChipAuthentication", "Secrets", "Emrtd", "Seals",
                ],
                path: "Apps/emrtd-bench"
            ),
        ]
)

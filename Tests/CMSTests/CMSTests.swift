import Testing

@testable import CMS

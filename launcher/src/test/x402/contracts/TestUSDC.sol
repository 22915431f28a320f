// SPDX-License-Identifier: MIT
// Test-only EIP-3009 token for the Proofline x402 harness. Never deploy it anywhere but a local anvil chain.
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ERC3009} from "@openzeppelin/contracts/token/ERC20/extensions/draft-ERC3009.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// USDC-like token: EIP-712 domain {name: "USDC", version: "2"}, 6 decimals,
/// transferWithAuthorization / receiveWithAuthorization / cancelAuthorization (EIP-3009,
/// v,r,s form from OpenZeppelin's ERC3009) plus the bytes-signature overload of USDC v2.2.
contract TestUSDC is ERC20, EIP712, ERC3009 {
    address public immutable minter;

    constructor() ERC20("USDC", "USDC") EIP712("USDC", "2") {
        minter = msg.sender;
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// USDC exposes its EIP-712 version; the x402 facilitator reads it when diagnosing failures.
    function version() external pure returns (string memory) {
        return "2";
    }

    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "only minter");
        _mint(to, amount);
    }

    /// USDC v2.2 overload: signature as bytes (ECDSA or ERC-1271).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public {
        bytes32 hash = _hashTypedDataV4(
            keccak256(abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce))
        );
        require(SignatureChecker.isValidSignatureNow(from, hash, signature), ERC3009InvalidSignature());
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce);
    }
}

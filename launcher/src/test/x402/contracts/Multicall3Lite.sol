// SPDX-License-Identifier: MIT
// Test-only stand-in for Multicall3's tryAggregate, placed by chain.mjs at the canonical Multicall3
// address on the local anvil chain (anvil has no Multicall3), so the x402 facilitator's failure
// diagnosis (balance, nonce used, name/version) gives precise reasons instead of "simulation failed".
pragma solidity ^0.8.26;

contract Multicall3Lite {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(ok, "Multicall3: call failed");
            returnData[i] = Result(ok, ret);
        }
    }
}

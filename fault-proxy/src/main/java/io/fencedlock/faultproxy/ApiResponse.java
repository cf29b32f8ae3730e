package io.fencedlock.faultproxy;

import com.google.gson.JsonElement;
import org.jspecify.annotations.Nullable;

/**
 * A status and an optional JSON body. Immutable.
 *
 * @param trailingNewline Go's {@code http.Error} and {@code /version} end the body with one
 */
record ApiResponse(int status, @Nullable JsonElement body, boolean trailingNewline) {

  static ApiResponse ok(JsonElement body) {
    return new ApiResponse(200, body, false);
  }

  static ApiResponse created(JsonElement body) {
    return new ApiResponse(201, body, false);
  }

  static ApiResponse noContent() {
    return new ApiResponse(204, null, false);
  }

  static ApiResponse error(ApiException error) {
    return new ApiResponse(error.status(), JsonMapping.errorJson(error), true);
  }
}

print("calldir")

package io.servebench.study;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a class declares its fields and methods, read from its class file (javac
 * writes members in source order). Reflection makes no promise about order, and a study's variants
 * and parameters expand in declaration order, as the annotation processor sees them.
 *
 * @param fields  field names in declaration order
 * @param methods method names in declaration order (an overloaded name appears once per overload)
 */
record DeclarationOrder(List<String> fields, List<String> methods) {

    private static final int MAGIC = 0xCAFEBABE;

    /**
     * Reads the order from {@code type}'s class file.
     *
     * @throws UncheckedIOException when the class file cannot be found or read as a class file
     */
    static DeclarationOrder of(Class<?> type) {
        String resource = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
        try (InputStream raw = type.getResourceAsStream(resource)) {
            if (raw == null) {
                throw new IOException("class file " + resource + " not found next to " + type.getName());
            }
            return read(new DataInputStream(raw));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the declaration order of " + type.getName(), e);
        }
    }

    private static DeclarationOrder read(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a class file (bad magic number)");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int poolCount = in.readUnsignedShort();
        String[] utf8 = new String[poolCount];
        for (int i = 1; i < poolCount; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++; // long and double constants take two pool slots
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at index " + i);
            }
        }
        in.skipNBytes(6); // access flags, this class, super class
        in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
        List<String> fields = readMembers(in, utf8);
        List<String> methods = readMembers(in, utf8);
        return new DeclarationOrder(fields, methods);
    }

    private static List<String> readMembers(DataInputStream in, String[] utf8) throws IOException {
        int count = in.readUnsignedShort();
        List<String> names = new ArrayList<>(count);
        for (int m = 0; m < count; m++) {
            in.skipNBytes(2); // access flags
            names.add(utf8[in.readUnsignedShort()]);
            in.skipNBytes(2); // descriptor
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                in.skipNBytes(2);
                in.skipNBytes(Integer.toUnsignedLong(in.readInt()));
            }
        }
        return List.copyOf(names);
    }
}
